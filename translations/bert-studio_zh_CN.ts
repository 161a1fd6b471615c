<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>EngineText</name>
    <message>
        <source>out of memory at micro-batch %1; continuing with %2 × %3 accumulation (effective batch %4 unchanged)</source>
        <translation>微批次 %1 内存不足；改为 %2 × %3 累积继续（有效批大小 %4 不变）</translation>
    </message>
    <message>
        <source>out of memory in evaluation at batch %1; evaluating in batches of %2 (training is not affected)</source>
        <translation>评估批次 %1 内存不足；改为每批 %2 个评估（训练不受影响）</translation>
    </message>
    <message>
        <source>non-finite gradients: optimizer step skipped, loss scale backed off</source>
        <translation>梯度出现非有限值：跳过本次优化步，并降低损失缩放</translation>
    </message>
    <message>
        <source>non-finite gradients: optimizer step skipped</source>
        <translation>梯度出现非有限值：跳过本次优化步</translation>
    </message>
    <message>
        <source>stopped by the user at step %1</source>
        <translation>用户在第 %1 步停止</translation>
    </message>
    <message>
        <source>stopped early at step %1: no better %2 for %3 evaluations (best %4 at step %5)</source>
        <translation>第 %1 步提前停止：连续 %3 次评估%2未提升（最佳 %4，在第 %5 步）</translation>
    </message>
    <message>
        <source>stopped early at step %1: no better %2 for %3 evaluations (best %4)</source>
        <translation>第 %1 步提前停止：连续 %3 次评估%2未提升（最佳 %4）</translation>
    </message>
    <message>
        <source>forecast peak %1 MiB; trial step on the longest micro-batch (%2 examples) %3 MiB</source>
        <translation>预测峰值 %1 MiB；用最长微批次（%2 个样本）试运行一步：%3 MiB</translation>
    </message>
    <message>
        <source>the loss diverged at step %1: it was not finite for %2 steps in a row; lower the learning rate (or use bf16 instead of fp16) and train again</source>
        <translation>损失在第 %1 步发散：连续 %2 步为非有限值；请降低学习率（或用 bf16 代替 fp16）后重新训练</translation>
    </message>
    <message>
        <source>out of memory at micro-batch %1 (cannot shrink further): %2. Try gradient checkpointing, bf16/fp16, a shorter max length, freezing layers, or a larger memory cap.</source>
        <translation>微批次 %1 内存不足（无法再缩小）：%2。请尝试梯度检查点、bf16/fp16、更短的最大长度、冻结层，或更大的内存上限。</translation>
    </message>
    <message>
        <source>epoch checkpoint saved to %1</source>
        <translation>本轮检查点已保存到 %1</translation>
    </message>
    <message>
        <source>best checkpoint saved to %1</source>
        <translation>最佳检查点已保存到 %1</translation>
    </message>
    <message>
        <source>checkpoint at the cancel saved to %1</source>
        <translation>取消时的检查点已保存到 %1</translation>
    </message>
    <message>
        <source>final checkpoint saved to %1</source>
        <translation>最终检查点已保存到 %1</translation>
    </message>
    <message>
        <source>resumed from %1</source>
        <translation>从 %1 继续</translation>
    </message>
    <message>
        <source>removed %1 MiB an interrupted checkpoint write left</source>
        <translation>已删除中断的检查点写入留下的 %1 MiB</translation>
    </message>
    <message>
        <source>the process ended during training; found at the next start</source>
        <translation>进程在训练中途结束；于下次启动时发现</translation>
    </message>
    <message>
        <source>the process ended during training (killed or crashed)</source>
        <translation>进程在训练中途结束（被终止或崩溃）</translation>
    </message>
    <message>
        <source>bf16 on this CPU is emulated (it has neither AVX512-BF16 nor AMX-BF16): several times slower a step than fp32</source>
        <translation>此 CPU 上的 bf16 为模拟实现（既无 AVX512-BF16 也无 AMX-BF16）：每步比 fp32 慢数倍</translation>
    </message>
    <message>
        <source>line %1 has %2 fields but the header has %3 (an unquoted delimiter in the text?)</source>
        <translation>第 %1 行有 %2 个字段，但表头只有 %3 个（文本中有未加引号的分隔符？）</translation>
    </message>
    <message>
        <source>line %1: a quoted field starts here and is never closed</source>
        <translation>第 %1 行：此处开始的带引号字段没有结束</translation>
    </message>
    <message>
        <source>is not a text file (binary content at byte %1)</source>
        <translation>不是文本文件（第 %1 个字节起为二进制内容）</translation>
    </message>
    <message>
        <source>is UTF-16 text; save it as UTF-8</source>
        <translation>是 UTF-16 文本；请另存为 UTF-8</translation>
    </message>
    <message>
        <source>is empty (no header line)</source>
        <translation>为空（没有表头行）</translation>
    </message>
    <message>
        <source>is empty (no JSON objects)</source>
        <translation>为空（没有 JSON 对象）</translation>
    </message>
    <message>
        <source>line %1 is not a JSON object (JSON Lines needs one object per line)</source>
        <translation>第 %1 行不是 JSON 对象（JSON Lines 每行需要一个对象）</translation>
    </message>
    <message>
        <source>has an extension BERT Studio does not read (use .csv, .tsv or .jsonl)</source>
        <translation>的扩展名 BERT Studio 无法读取（请使用 .csv、.tsv 或 .jsonl）</translation>
    </message>
    <message>
        <source>has no rows with both a text and a label</source>
        <translation>没有同时包含文本和标签的行</translation>
    </message>
    <message>
        <source>has a single class (%1); a classifier needs at least two labels</source>
        <translation>只有一个类别（%1）；分类器至少需要两个标签</translation>
    </message>
    <message>
        <source>has no %1 column %2; the columns found are %3</source>
        <translation>没有%1列 %2；现有的列为 %3</translation>
    </message>
    <message>
        <source>does not exist</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>could not be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>cannot be opened for reading: %1</source>
        <translation>无法打开读取：%1</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>macro-f1</source>
        <translation>宏 F1</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>use unpadded batches (%1)</source>
        <translation>使用不填充的批次（%1）</translation>
    </message>
    <message>
        <source>turn on gradient checkpointing (%1)</source>
        <translation>开启梯度检查点（%1）</translation>
    </message>
    <message>
        <source>use %1 mixed precision (%2)</source>
        <translation>使用 %1 混合精度（%2）</translation>
    </message>
    <message>
        <source>shorten the max length to %1 (%2; cuts the text of longer examples)</source>
        <translation>把最大长度缩短到 %1（%2；会截断较长样本的文本）</translation>
    </message>
    <message>
        <source>shorten the max length to %1 (%2)</source>
        <translation>把最大长度缩短到 %1（%2）</translation>
    </message>
    <message>
        <source>use micro-batch %1 × accumulation %2 (%3; effective batch %4 kept)</source>
        <translation>使用微批次 %1 × 累积 %2（%3；有效批大小 %4 不变）</translation>
    </message>
    <message>
        <source>evaluate in batches of %1 (evaluation a little slower; training unchanged)</source>
        <translation>评估改为每批 %1 个（评估稍慢；训练不变）</translation>
    </message>
    <message>
        <source>about as fast</source>
        <translation>速度基本不变</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>second text</source>
        <translation>第二文本</translation>
    </message>
    <message>
        <source>about %1x slower</source>
        <translation>耗时约为 %1 倍</translation>
    </message>
    <message>
        <source>about %1x faster</source>
        <translation>速度约为 %1 倍</translation>
    </message>
    <message>
        <source>CPU memory cap of %1 reached: tried to allocate %2 with %3 in use</source>
        <translation>已达到 CPU 内存上限 %1：尝试分配 %2，已用 %3</translation>
    </message>
    <message>
        <source>the target &quot;%1&quot; has mean %2 and standard deviation %3 and is not standardised: the model&apos;s output starts near 0 and may never reach numbers this far from it (R² stays negative); standardise it (--standardize-targets, the default; in the studio, Standardise the target)</source>
        <translation>目标“%1”的均值为 %2、标准差为 %3，且未标准化：模型的输出从 0 附近开始，可能永远达不到离 0 这么远的数值（R² 一直为负）；请将其标准化（--standardize-targets，默认开启；在工作室中勾选“标准化目标值”）</translation>
    </message>
    <message>
        <source>freeze the lowest %1 of %2 layers (%3; they learn nothing; may cost accuracy)</source>
        <translation>冻结最低的 %1 层（共 %2 层）（%3；这些层不再学习；可能损失准确率）</translation>
    </message>
    <message>
        <source>%1% of the tokens are unknown to the model&apos;s vocabulary (%2): it cannot read this text, and a run would learn little beyond chance; choose a model for this language</source>
        <translation>%1% 的词元不在模型词表中（%2）：模型读不懂这段文本，训练结果不会比随机猜测好多少；请选择适合这种语言的模型</translation>
    </message>
    <message>
        <source>%1% of the tokens are unknown to the model&apos;s vocabulary (%2): a run learns from the rest of the text only; a model for this language would read all of it</source>
        <translation>%1% 的词元不在模型词表中（%2）：训练只能从其余文本中学习；适合这种语言的模型能读懂全部文本</translation>
    </message>
    <message>
        <source>%1% of the tokens are unknown to the model&apos;s vocabulary (%2): some words are lost to it; a model for this language would read more of it</source>
        <translation>%1% 的词元不在模型词表中（%2）：部分词语会丢失；适合这种语言的模型能读懂更多内容</translation>
    </message>
    <message>
        <source>rows without text or label skipped: %1 (the first on line %2)</source>
        <translation>跳过了没有文本或标签的行：%1 行（第一行在第 %2 行）</translation>
    </message>
    <message>
        <source>rows without text skipped: %1 (the first on line %2)</source>
        <translation>跳过了没有文本的行：%1 行（第一行在第 %2 行）</translation>
    </message>
    <message>
        <source>read as Windows-1252 (the file is not UTF-8)</source>
        <translation>按 Windows-1252 编码读取（该文件不是 UTF-8）</translation>
    </message>
    <message>
        <source>invalid UTF-8 sequences replaced: %1</source>
        <translation>替换了无效的 UTF-8 序列：%1 个</translation>
    </message>
    <message>
        <source>control characters removed: %1 (the first, %2, on line %3 in column &quot;%4&quot;)</source>
        <translation>删除了控制字符：%1 个（第一个是 %2，在第 %3 行的“%4”列）</translation>
    </message>
    <message>
        <source>control characters removed: %1 (the first, %2, on line %3 in the header)</source>
        <translation>删除了控制字符：%1 个（第一个是 %2，在第 %3 行的表头）</translation>
    </message>
    <message>
        <source>line %1: the label &quot;%2&quot; holds byte %3, which is not UTF-8 (labels that differ only there would become one); save the file as UTF-8</source>
        <translation>第 %1 行：标签“%2”含有字节 %3，它不是 UTF-8（只在此处不同的标签会被合并为一个）；请把文件另存为 UTF-8</translation>
    </message>
    <message>
        <source>%1 of %2 texts (%3%) fill the max length of %4 tokens and lost their ends (long texts: truncate); head+tail keeps a text&apos;s end at the same cost, windows read whole texts (Long texts in the Training tab)</source>
        <translation>%2 条文本中有 %1 条（%3%）占满了 %4 个词元的最大长度，结尾被截去（长文本：截断）；首尾方式以相同代价保留文本结尾，窗口方式读完整段文本（见训练页的“长文本”）</translation>
    </message>
    <message>
        <source>%1 of %2 texts (%3%) fill the max length of %4 tokens and were cut longest first, as transformers does (long texts: truncate)</source>
        <translation>%2 条文本中有 %1 条（%3%）占满了 %4 个词元的最大长度，已按 transformers 的做法先截较长的一段（长文本：截断）</translation>
    </message>
    <message>
        <source>%1% of %2 documents exceed %3 tokens; windows of %4, stride %5: %6 windows per document</source>
        <translation>%2 篇文档中 %1% 超过 %3 个词元；窗口长 %4、重叠 %5：每篇文档平均 %6 个窗口</translation>
    </message>
    <message>
        <source>%1% of %2 documents exceed %3 tokens</source>
        <translation>%2 篇文档中 %1% 超过 %3 个词元</translation>
    </message>
    <message>
        <source>window stride %1 is not smaller than a window: max length %2 holds %3 tokens of text; a stride must leave each window new tokens</source>
        <translation>窗口重叠 %1 不小于窗口：最大长度 %2 只容纳 %3 个文本词元；重叠必须让每个窗口都有新词元</translation>
    </message>
    <message>
        <source>head tokens %1 leave no room for the tail: max length %2 holds %3 tokens of text</source>
        <translation>开头词元数 %1 没有给结尾留下空间：最大长度 %2 只容纳 %3 个文本词元</translation>
    </message>
    <message>
        <source>long texts %1: token classification cuts its sentences at max length (truncate); long sentences are not yet cut into windows for tagging</source>
        <translation>长文本“%1”：词元分类在最大长度处截断句子（截断）；长句尚不能切成窗口进行标注</translation>
    </message>
    <message>
        <source>long texts %1: a pair of texts (second text column &quot;%2&quot;) is truncated longest first, as transformers does; choose truncate</source>
        <translation>长文本“%1”：文本对（第二文本列“%2”）按 transformers 的做法先截较长的一段；请选择截断</translation>
    </message>
    <message>
        <source>windows</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>head-tail</source>
        <translation>首尾</translation>
    </message>
    <message>
        <source>fp16 is known to make %1 training diverge: its attention scores overflow fp16&apos;s range (microsoft/DeBERTa issue 77); bf16 has fp32&apos;s range: choose bf16, or fp32</source>
        <translation>已知 fp16 会使 “%1” 的训练发散：其注意力分数超出 fp16 的数值范围（microsoft/DeBERTa 问题 77）；bf16 与 fp32 的数值范围相同：请选择 bf16 或 fp32</translation>
    </message>
    <message>
        <source>freeze the embeddings (%1; saves %2 MiB; may cost a little accuracy)</source>
        <translation>冻结嵌入层（%1；节省 %2 MiB；可能略损准确率）</translation>
    </message>
    <message>
        <source>the embeddings hold %1M of the model&apos;s %2M parameters (%3%): freezing them (Freeze embeddings) frees their AdamW state (%4 MiB) and gradients (%5 MiB); may cost a little accuracy</source>
        <translation>嵌入层占模型 %2M 个参数中的 %1M 个（%3%）：冻结嵌入层（“冻结嵌入层”选项）可释放其 AdamW 状态（%4 MiB）和梯度（%5 MiB）；可能略损准确率</translation>
    </message>
    <message>
        <source>Focal loss gamma %1: focal loss reshapes a loss over classes, and %2 has none (its loss is a squared error); leave it at 0</source>
        <translation>焦点损失 γ %1：焦点损失作用于类别上的损失，而“%2”没有类别（其损失为平方误差）；请保持为 0</translation>
    </message>
    <message>
        <source>rare classes: %1; a model can score well while ignoring them: Class weighting balanced or Focal loss gamma 2 weigh them up, and per-class F1 says more than accuracy</source>
        <translation>稀有类别：%1；模型即使忽略它们也可能得分很高：类别加权选“平衡”或焦点损失 γ 取 2 可提高其权重，且各类别的 F1 比准确率更能说明问题</translation>
    </message>
    <message>
        <source>rare labels: %1; a model can score well while ignoring them: Class weighting balanced or Focal loss gamma 2 weigh them up, and per-label F1 says more than accuracy</source>
        <translation>稀有标签：%1；模型即使忽略它们也可能得分很高：类别加权选“平衡”或焦点损失 γ 取 2 可提高其权重，且各标签的 F1 比准确率更能说明问题</translation>
    </message>
    <message>
        <source>bf16 is %1&apos;s default on a device with native bf16: fp16 overflows its attention scores (microsoft/DeBERTa issue 77), bf16 keeps fp32&apos;s range and halves the activations</source>
        <translation>在原生支持 bf16 的设备上，“%1” 默认使用 bf16：fp16 会使其注意力分数溢出（microsoft/DeBERTa 问题 77），bf16 保持 fp32 的数值范围，并使激活值减半</translation>
    </message>
    <message>
        <source>no temperature minimises the validation loss (it falls as the temperature goes to 0: the set is predicted without error)</source>
        <translation>没有使验证损失最小的温度（温度趋于 0 时损失一直下降：验证集全部预测正确）</translation>
    </message>
    <message>
        <source>no temperature minimises the validation loss (it falls as the temperature grows: the model&apos;s probabilities are no better than uniform ones)</source>
        <translation>没有使验证损失最小的温度（温度增大时损失一直下降：模型的概率不比均匀分布更好）</translation>
    </message>
    <message>
        <source>the temperature did not converge (at %1 the loss still changes by %2 per unit)</source>
        <translation>温度没有收敛（在 %1 处，损失每单位仍变化 %2）</translation>
    </message>
</context>
<context>
    <name>Names</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>tiny</source>
        <translation>微型</translation>
    </message>
    <message>
        <source>mini</source>
        <translation>迷你</translation>
    </message>
    <message>
        <source>small</source>
        <translation>小型</translation>
    </message>
    <message>
        <source>base</source>
        <translation>基础</translation>
    </message>
    <message>
        <source>data parallel on %1 processes</source>
        <translation>%1 个进程数据并行</translation>
    </message>
    <message>
        <source>Single-label classification</source>
        <translation>单标签分类</translation>
    </message>
    <message>
        <source>Multi-label classification</source>
        <translation>多标签分类</translation>
    </message>
    <message>
        <source>Regression</source>
        <translation>回归</translation>
    </message>
    <message>
        <source>Token classification (NER)</source>
        <translation>词元分类（命名实体识别）</translation>
    </message>
    <message>
        <source>micro-F1</source>
        <translation>微平均 F1</translation>
    </message>
    <message>
        <source>macro-F1</source>
        <translation>宏 F1</translation>
    </message>
    <message>
        <source>micro precision</source>
        <translation>微平均精确率</translation>
    </message>
    <message>
        <source>micro recall</source>
        <translation>微平均召回率</translation>
    </message>
    <message>
        <source>subset accuracy</source>
        <translation>子集准确率</translation>
    </message>
    <message>
        <source>Hamming loss</source>
        <translation>汉明损失</translation>
    </message>
    <message>
        <source>RMSE</source>
        <translation>RMSE</translation>
    </message>
    <message>
        <source>MAE</source>
        <translation>MAE</translation>
    </message>
    <message>
        <source>Pearson r</source>
        <translation>Pearson r</translation>
    </message>
    <message>
        <source>Spearman ρ</source>
        <translation>Spearman ρ</translation>
    </message>
    <message>
        <source>R²</source>
        <translation>R²</translation>
    </message>
    <message>
        <source>entity F1</source>
        <translation>实体 F1</translation>
    </message>
    <message>
        <source>entity precision</source>
        <translation>实体精确率</translation>
    </message>
    <message>
        <source>entity recall</source>
        <translation>实体召回率</translation>
    </message>
    <message>
        <source>token accuracy</source>
        <translation>词元准确率</translation>
    </message>
</context>
<context>
    <name>TaskSummary</name>
    <message>
        <source>examples</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>Examples with this label</source>
        <translation>带有此标签的样本</translation>
    </message>
    <message>
        <source>Entity type</source>
        <translation>实体类型</translation>
    </message>
    <message>
        <source>Entities</source>
        <translation>实体数</translation>
    </message>
    <message>
        <source>Tagged words</source>
        <translation>标注的词数</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>词</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>longer than %1</source>
        <translation>长于 %1</translation>
    </message>
    <message>
        <source>%1: the %2 most frequent of %3</source>
        <translation>%1：%3 个中最常见的 %2 个</translation>
    </message>
</context>
<context>
    <name>TrainingOptions</name>
    <message>
        <source>Validation share</source>
        <translation>验证比例</translation>
    </message>
    <message>
        <source>Share of the examples held out for validation (a stratified split) when no validation file is given.</source>
        <translation>未提供验证文件时，留作验证的样本比例（分层划分）。</translation>
    </message>
    <message>
        <source>Max &amp;length</source>
        <translation>最大长度(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Padding</source>
        <translation>填充(&amp;P)</translation>
    </message>
    <message>
        <source>dynamic</source>
        <translation>动态</translation>
    </message>
    <message>
        <source>fixed</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Pad to multiple of</source>
        <translation>填充到倍数</translation>
    </message>
    <message>
        <source>Round padded lengths up to a multiple (8 suits tensor cores under fp16); costs a little padding.</source>
        <translation>把填充长度向上取整到倍数（fp16 下 8 适合张量核心）；会多一点填充。</translation>
    </message>
    <message>
        <source>Group by length</source>
        <translation>按长度分组</translation>
    </message>
    <message>
        <source>Batches of similar lengths (longest first, so an out-of-memory shows at once): far less padding; slightly less random batches.</source>
        <translation>长度相近的样本组成批次（最长的在前，内存不足会立即暴露）：填充大大减少；批次随机性略降。</translation>
    </message>
    <message>
        <source>&amp;Batch size</source>
        <translation>批大小(&amp;B)</translation>
    </message>
    <message>
        <source>Examples per forward/backward pass. Activation memory grows with it; larger is faster per example.</source>
        <translation>每次前向/反向传播的样本数。激活内存随之增长；越大则每个样本越快。</translation>
    </message>
    <message>
        <source>&amp;Accumulation steps</source>
        <translation>累积步数(&amp;A)</translation>
    </message>
    <message>
        <source>Micro-batches summed before each optimizer step: the effective batch grows without the activation memory; costs time per example.</source>
        <translation>每次优化器更新前累加的微批次数：有效批大小增大而激活内存不变；每个样本耗时增加。</translation>
    </message>
    <message>
        <source>Evaluation batch</source>
        <translation>评估批大小</translation>
    </message>
    <message>
        <source>Examples per evaluation pass (no gradients are kept, so it can be larger).</source>
        <translation>每次评估的样本数（不保留梯度，因此可以更大）。</translation>
    </message>
    <message>
        <source>Freeze embeddings</source>
        <translation>冻结嵌入层</translation>
    </message>
    <message>
        <source>Freeze lowest layers</source>
        <translation>冻结底部层数</translation>
    </message>
    <message>
        <source>Freeze the lowest N encoder layers: no gradients, optimizer state or (with frozen embeddings) activations for them; may cost accuracy.</source>
        <translation>冻结最底部的 N 个编码层：这些层无梯度、无优化器状态（嵌入层也冻结时亦无激活）；可能降低准确率。</translation>
    </message>
    <message>
        <source>P&amp;recision</source>
        <translation>精度(&amp;R)</translation>
    </message>
    <message>
        <source>bf16/fp16 autocast stores activations in half precision and runs faster on GPUs; fp16 adds dynamic loss scaling. Weights stay fp32.</source>
        <translation>bf16/fp16 自动混合精度以半精度保存激活，在 GPU 上更快；fp16 会加上动态损失缩放。权重保持 fp32。</translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>Keep only each layer&apos;s input and recompute the layer in backward: activation memory falls to about one layer; about 20-30% slower.</source>
        <translation>只保存每层的输入，在反向传播时重新计算该层：激活内存降到约一层；速度慢约 20-30%。</translation>
    </message>
    <message>
        <source>Cache release</source>
        <translation>缓存释放</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>after evaluation</source>
        <translation>评估之后</translation>
    </message>
    <message>
        <source>every N steps</source>
        <translation>每 N 步</translation>
    </message>
    <message>
        <source>Release every N steps</source>
        <translation>每 N 步释放</translation>
    </message>
    <message>
        <source>N for cache release every N steps.</source>
        <translation>“每 N 步释放缓存”中的 N。</translation>
    </message>
    <message>
        <source>Memory cap (MiB)</source>
        <translation>内存上限 (MiB)</translation>
    </message>
    <message>
        <source>Refuse allocations past this size, as a smaller GPU would: rehearse a 16 GB card on a bigger one, or test on the CPU.</source>
        <translation>超过此大小的分配将被拒绝，如同更小的 GPU：可在大显卡上预演 16 GB 显卡，或在 CPU 上测试。</translation>
    </message>
    <message>
        <source>Recover from out-of-memory</source>
        <translation>从内存不足中恢复</translation>
    </message>
    <message>
        <source>On out-of-memory, halve the micro-batch and double accumulation: the effective batch stays the same.</source>
        <translation>内存不足时，将微批次减半、累积步数加倍：有效批大小保持不变。</translation>
    </message>
    <message>
        <source>&amp;Epochs</source>
        <translation>轮数(&amp;E)</translation>
    </message>
    <message>
        <source>Passes over the training data.</source>
        <translation>遍历训练数据的次数。</translation>
    </message>
    <message>
        <source>Max steps</source>
        <translation>最大步数</translation>
    </message>
    <message>
        <source>Stop after this many optimizer steps (0: no limit).</source>
        <translation>达到此优化器步数后停止（0：不限）。</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>AdamW weight decay; not applied to biases and LayerNorm.</source>
        <translation>AdamW 权重衰减；不作用于偏置和 LayerNorm。</translation>
    </message>
    <message>
        <source>Warmup share</source>
        <translation>预热比例</translation>
    </message>
    <message>
        <source>Share of steps spent warming the learning rate up from zero.</source>
        <translation>学习率从零预热所占的步数比例。</translation>
    </message>
    <message>
        <source>Clip gradient norm</source>
        <translation>梯度范数裁剪</translation>
    </message>
    <message>
        <source>Clip the gradient norm (after unscaling under fp16); 0 turns clipping off.</source>
        <translation>裁剪梯度范数（fp16 下在反缩放之后）；0 表示不裁剪。</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Seed of the split, initialisation, shuffling and dropout: equal seeds, equal runs on the CPU.</source>
        <translation>数据划分、初始化、打乱和 dropout 的随机种子：在 CPU 上种子相同则结果相同。</translation>
    </message>
    <message>
        <source>Evaluate every N steps</source>
        <translation>每 N 步评估</translation>
    </message>
    <message>
        <source>&amp;Device</source>
        <translation>设备(&amp;D)</translation>
    </message>
    <message>
        <source>Where training runs: cpu or cuda:N.</source>
        <translation>训练运行的位置：cpu 或 cuda:N。</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU 线程数</translation>
    </message>
    <message>
        <source>Threads for LibTorch&apos;s CPU kernels (0: LibTorch&apos;s default, one per core).</source>
        <translation>LibTorch CPU 内核使用的线程数（0：LibTorch 默认值，每个核心一个）。</translation>
    </message>
    <message>
        <source>Save checkpoints</source>
        <translation>保存检查点</translation>
    </message>
    <message>
        <source>Save the model and training state at epoch ends, at the best validation accuracy and on cancel, so runs can resume and export.</source>
        <translation>在每轮结束、验证准确率最佳时以及取消时保存模型和训练状态，以便运行可以恢复和导出。</translation>
    </message>
    <message>
        <source>Stop after non-finite steps</source>
        <translation>非有限步数后停止</translation>
    </message>
    <message>
        <source>Stop the run as diverged after this many optimizer steps in a row whose loss is not finite (NaN or infinite): lower the learning rate then (0: never stop).</source>
        <translation>连续这么多个优化器步的损失不是有限值（NaN 或无穷大）时，判定为发散并停止运行：此时请降低学习率（0：从不停止）。</translation>
    </message>
    <message>
        <source>Evaluate every N steps as well as at each epoch end (0: evaluations per epoch decides).</source>
        <translation>除每轮结束外，每 N 步也评估一次（0：由“每轮评估次数”决定）。</translation>
    </message>
    <message>
        <source>Evaluations per epoch</source>
        <translation>每轮评估次数</translation>
    </message>
    <message>
        <source>Evaluate this many times per epoch, evenly spaced, the epoch end included, when &apos;evaluate every N steps&apos; is 0; 1: epoch ends only.</source>
        <translation>当“每 N 步评估”为 0 时，每轮均匀评估这么多次（含每轮结束）；1：仅在每轮结束时评估。</translation>
    </message>
    <message>
        <source>Class weighting</source>
        <translation>类别加权</translation>
    </message>
    <message>
        <source>balanced: each class&apos;s examples weigh N / (classes x its count) in the loss, so a rare class is not ignored; off: every example weighs the same.</source>
        <translation>balanced：每个类别的样本在损失中的权重为 N /（类别数 × 该类样本数），稀有类别不会被忽略；off：所有样本权重相同。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>Best model by</source>
        <translation>最佳模型依据</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>macro-F1</source>
        <translation>宏 F1</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Early stopping patience</source>
        <translation>提前停止耐心值</translation>
    </message>
    <message>
        <source>Stop when this many evaluations in a row bring no better &apos;best model by&apos; metric (0: never stop early).</source>
        <translation>连续这么多次评估“最佳模型依据”指标都没有提升时停止（0：从不提前停止）。</translation>
    </message>
    <message>
        <source>Peak learning rate of AdamW (reached after the warmup).</source>
        <translation>AdamW 的峰值学习率（预热结束时达到）。</translation>
    </message>
    <message>
        <source>Learning-rate schedule</source>
        <translation>学习率调度</translation>
    </message>
    <message>
        <source>After the warmup: linear decay to 0, half a cosine down to 0, or the peak rate to the end (transformers&apos; schedules with warmup).</source>
        <translation>预热之后：线性衰减到 0、半个余弦衰减到 0，或保持峰值到结束（即 transformers 的带预热调度）。</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>恒定</translation>
    </message>
    <message>
        <source>Shard optimizer state</source>
        <translation>分片优化器状态</translation>
    </message>
    <message>
        <source>Data parallel only (ZeRO stage 1): each process keeps the AdamW moments of its share of the weights, updates that share and passes it to the others; optimizer memory per process falls by the number of processes.</source>
        <translation>仅用于数据并行（ZeRO 第 1 阶段）：每个进程只保存自己那一份权重的 AdamW 动量，更新这一份并传给其他进程；每个进程的优化器内存按进程数成比例减少。</translation>
    </message>
    <message>
        <source>Data-parallel processes</source>
        <translation>数据并行进程数</translation>
    </message>
    <message>
        <source>Train as this many processes on this machine, each taking batch size x accumulation examples of every step and summing gradients with the others: on CUDA one per GPU (all of them), on the CPU to rehearse data parallel (Gloo over loopback). 1: one process. torchrun and Slurm launches are recognised by their environment instead.</source>
        <translation>在本机以这么多个进程训练，每个进程承担每一步中 批大小 × 累积步数 个样本，并与其他进程求和梯度：在 CUDA 上每块 GPU 一个进程（全部 GPU），在 CPU 上用于演练数据并行（经回环地址的 Gloo）。1：单进程。torchrun 和 Slurm 启动的任务则由其环境变量识别。</translation>
    </message>
    <message>
        <source>Shuffle each epoch</source>
        <translation>每轮打乱顺序</translation>
    </message>
    <message>
        <source>A new order of the training examples each epoch, drawn from the seed. Off: the file&apos;s own order every epoch (a curriculum, or another tool&apos;s run to reproduce); grouping by length then sorts consecutive examples.</source>
        <translation>每轮按随机种子为训练样本生成新的顺序。关闭：每轮都使用文件自身的顺序（用于课程式学习，或复现其他工具的训练）；此时按长度分组只对相邻样本排序。</translation>
    </message>
    <message>
        <source>Unpadded computes on the real tokens alone (attention runs per group of equal lengths); dynamic pads each batch to its longest example; fixed pads every batch to max length. Same results; unpadded uses the least memory and time.</source>
        <translation>不填充：只计算真实的词元（注意力按长度相同的分组计算）；动态：每个批次填充到其中最长的样本；固定：每个批次都填充到最大长度。结果相同；不填充占用的内存和时间最少。</translation>
    </message>
    <message>
        <source>unpadded</source>
        <translation>不填充</translation>
    </message>
    <message>
        <source>Cache the frozen part&apos;s output (no dropout there)</source>
        <translation>缓存冻结部分的输出（该部分不做 dropout）</translation>
    </message>
    <message>
        <source>With frozen embeddings (and frozen lowest layers), compute each example&apos;s output of the frozen part once and reuse it: later epochs and evaluations skip the frozen part. Dropout inside the frozen part is off. Kept in memory up to the size below, the rest in a file beside the run, removed when the run ends.</source>
        <translation>嵌入层（以及最底部的若干层）冻结时，每个样本的冻结部分输出只计算一次并重复使用：之后的轮次和评估都跳过冻结部分。冻结部分内的 dropout 关闭。缓存在内存中保存到下方设置的大小，其余写入运行目录旁的文件，运行结束时删除。</translation>
    </message>
    <message>
        <source>Cache in memory up to (MiB)</source>
        <translation>缓存内存上限 (MiB)</translation>
    </message>
    <message>
        <source>Host memory the frozen-prefix cache may use (not the device&apos;s); what does not fit goes to a file beside the run. 0: all of it in the file.</source>
        <translation>冻结前缀缓存可使用的主机内存（不是设备内存）；放不下的部分写入运行目录旁的文件。0：全部写入文件。</translation>
    </message>
    <message>
        <source>Trial step before training</source>
        <translation>训练前试运行一步</translation>
    </message>
    <message>
        <source>Before the first step, one forward and backward pass on the micro-batch of the longest examples measures the real peak: an out-of-memory shows before training starts, and the run keeps the figure beside the forecast. Costs about one step (more at long max lengths); off, training starts at once.</source>
        <translation>在第一步之前，用最长样本组成的微批次做一次前向和反向传播，测得真实的内存峰值：内存不足会在训练开始前暴露，运行记录会在预测值旁保存这一数值。耗时约一步（最大长度较长时更多）；关闭后训练立即开始。</translation>
    </message>
    <message>
        <source>Return cached memory to the system (on a GPU the CUDA allocator&apos;s cache, on the CPU the free blocks the heap keeps for reuse): helps other processes and fragmentation; every release costs speed.</source>
        <translation>将缓存的内存还给系统（GPU 上为 CUDA 分配器的缓存，CPU 上为堆为复用而保留的空闲块）：有助于其他进程并减少碎片；每次释放都会降低速度。</translation>
    </message>
    <message>
        <source>TF32 matrix multiplies</source>
        <translation>TF32 矩阵乘法</translation>
    </message>
    <message>
        <source>On a CUDA GPU of the Ampere generation or newer, fp32 matrix multiplies run on TF32 tensor cores: several times faster, with about 10 bits of mantissa in their products. No effect on the CPU, under bf16/fp16 autocast&apos;s half-precision products, or on memory.</source>
        <translation>在 Ampere 或更新架构的 CUDA GPU 上，fp32 矩阵乘法在 TF32 张量核心上运行：快数倍，乘积约保留 10 位尾数。对 CPU、bf16/fp16 自动混合精度下的半精度乘积以及内存均无影响。</translation>
    </message>
    <message>
        <source>Log every N steps</source>
        <translation>每 N 步记录一次</translation>
    </message>
    <message>
        <source>Read the loss, gradient norm and loss scale back from the device every N optimizer steps (and at each epoch end); each point of the curves is then the mean of N steps. Every read waits for the GPU to finish its queued work: a larger N keeps a GPU busy. 1: every step.</source>
        <translation>每 N 个优化步（以及每个轮次结束时）从设备读回损失、梯度范数和损失缩放；曲线上的每个点即为 N 步的平均值。每次读取都要等待 GPU 完成已排队的工作：N 越大，GPU 越不空闲。1：每一步。</translation>
    </message>
    <message>
        <source>The validation metric that chooses the best checkpoint and drives early stopping; macro-F1 suits imbalanced labels; the task&apos;s metric is micro-F1, RMSE or entity F1 for the other tasks.</source>
        <translation>用于选择最佳检查点并决定提前停止的验证指标；宏 F1 适合不均衡的标签；对其他任务，任务指标为微平均 F1、RMSE 或实体 F1。</translation>
    </message>
    <message>
        <source>the task&apos;s metric</source>
        <translation>任务指标</translation>
    </message>
    <message>
        <source>Long texts</source>
        <translation>长文本</translation>
    </message>
    <message>
        <source>Texts longer than max length: truncate keeps the first tokens; head+tail keeps the first head tokens and the last ones; windows cut the whole text into overlapping windows, each an example with the text&apos;s label, and pool the windows&apos; outputs into the text&apos;s prediction when evaluating and predicting (more examples to train on, the same memory per example).</source>
        <translation>超过最大长度的文本：截断保留开头的词元；首尾保留开头若干词元和结尾的词元；窗口把整段文本切成相互重叠的窗口，每个窗口作为一个带该文本标签的样本，评估和预测时把各窗口的输出汇聚为该文本的预测（训练样本更多，每个样本的内存不变）。</translation>
    </message>
    <message>
        <source>truncate</source>
        <translation>截断</translation>
    </message>
    <message>
        <source>head+tail</source>
        <translation>首尾</translation>
    </message>
    <message>
        <source>windows</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>Head tokens</source>
        <translation>开头词元数</translation>
    </message>
    <message>
        <source>Head+tail: tokens kept from the start of a long text; the rest of max length comes from its end.</source>
        <translation>首尾：从长文本开头保留的词元数；最大长度的其余部分取自文本结尾。</translation>
    </message>
    <message>
        <source>Window stride</source>
        <translation>窗口步幅</translation>
    </message>
    <message>
        <source>Windows: tokens each window shares with the one before (transformers&apos; stride); smaller than a window&apos;s text tokens.</source>
        <translation>窗口：每个窗口与前一个窗口共享的词元数（即 transformers 的 stride）；须小于一个窗口中的文本词元数。</translation>
    </message>
    <message>
        <source>Window pooling</source>
        <translation>窗口汇聚</translation>
    </message>
    <message>
        <source>Windows: how a text&apos;s windows&apos; logits become the text&apos;s: the task&apos;s own (the mean; for multi-label the largest per label), the mean, or the largest.</source>
        <translation>窗口：如何把一段文本各窗口的 logits 汇聚为该文本的 logits：按任务默认（取平均；多标签时每个标签取最大值）、取平均，或取最大值。</translation>
    </message>
    <message>
        <source>the task&apos;s</source>
        <translation>按任务默认</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Tokens per example; longer texts are cut as Long texts says (truncated by default). Activation memory grows with it, attention quadratically.</source>
        <translation>每个样本的词元数；更长的文本按“长文本”的设置处理（默认截断）。激活内存随之增长，注意力部分呈平方增长。</translation>
    </message>
    <message>
        <source>No gradients or optimizer state for the embeddings (a fifth of BERT-base&apos;s weights, half of MiniLM&apos;s, two thirds of a 250k-piece vocabulary&apos;s model: XLM-R, mDeBERTa, mmBERT); usually costs little accuracy.</source>
        <translation>嵌入层不计算梯度、不保存优化器状态（占 BERT-base 权重的五分之一、MiniLM 的一半、25 万词表模型的三分之二：XLM-R、mDeBERTa、mmBERT）；通常准确率损失很小。</translation>
    </message>
    <message>
        <source>Focal loss gamma</source>
        <translation>焦点损失 γ</translation>
    </message>
    <message>
        <source>0: the plain loss. Above 0, focal loss: the loss of each example (each label, each tag) is scaled by (1 - p)^gamma, p the probability the model gives its true class, so what the model already gets right counts less and hard or rare examples more (Lin et al. 2017 use 2; with balanced class weighting it is their alpha-balanced form). Not for regression.</source>
        <translation>0：普通损失。大于 0 时为焦点损失：每个样本（每个标签、每个标记）的损失乘以 (1 - p)^γ，p 为模型给出的真实类别概率；模型已经判对的样本权重降低，困难或稀有的样本权重提高（“Lin”等人 2017 年取 2；与平衡类别加权同用时即其 α 平衡形式）。不适用于回归。</translation>
    </message>
    <message>
        <source>Temperature scaling</source>
        <translation>温度缩放</translation>
    </message>
    <message>
        <source>Single-label: divide the logits by one temperature fitted on the validation set (the negative log-likelihood, minimised with L-BFGS: Guo et al. 2017), so that a probability of 0.8 is right about 8 times in 10. Predict, Try it and exports apply it; the predicted labels stay the same. Every evaluation measures the calibration (ECE, Model quality) either way.</source>
        <translation>单标签：把对数几率除以在验证集上拟合的一个温度（用有限内存拟牛顿法最小化负对数似然：郭川等，2017），使 0.8 的概率大约十次对八次。预测、试用和导出都会应用它；预测的标签不变。无论是否开启，每次评估都会测量校准程度（期望校准误差，见模型质量）。</translation>
    </message>
    <message>
        <source>Balanced sampling</source>
        <translation>均衡采样</translation>
    </message>
    <message>
        <source>Single-label: each epoch draws as many examples as the training set holds, with replacement, every class equally likely (PyTorch&apos;s WeightedRandomSampler with weights 1 / the class&apos;s count): a rare class is seen as often as a common one, its examples repeated, a common class&apos;s partly left out.</source>
        <translation>单标签：每轮有放回地抽取与训练集同样多的样本，每个类别被抽中的可能性相同（按 1 / 该类样本数加权抽样）：稀有类别与常见类别出现得一样频繁，其样本会重复，常见类别的样本则部分被跳过。</translation>
    </message>
    <message>
        <source>Rare class under (%)</source>
        <translation>稀有类别阈值（%）</translation>
    </message>
    <message>
        <source>A class (a label) with less than this share of the examples is rare: the Dataset tab and the run&apos;s warnings name it with what weighs it up (class weighting, focal loss, balanced sampling). Changes no training.</source>
        <translation>示例占比低于此值的类别（标签）视为稀有：数据集页和运行的警告会指出它，并说明如何提高它的权重（类别加权、焦点损失、均衡采样）。不改变训练。</translation>
    </message>
</context>
<context>
    <name>bert::ui::CompareDialog</name>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>by step</source>
        <translation>按步</translation>
    </message>
    <message>
        <source>by epoch</source>
        <translation>按轮</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>duration</source>
        <translation>用时</translation>
    </message>
    <message>
        <source>peak memory (MiB)</source>
        <translation>峰值内存 (MiB)</translation>
    </message>
    <message>
        <source>run %1 (%2)</source>
        <translation>运行 %1（%2）</translation>
    </message>
    <message>
        <source>Curves:</source>
        <translation>曲线：</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>best macro-F1</source>
        <translation>最佳宏 F1</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Validation %1</source>
        <translation>验证%1</translation>
    </message>
    <message>
        <source>The runs&apos; tasks differ: they are compared on their loss only</source>
        <translation>这些运行的任务不同：只比较它们的损失</translation>
    </message>
    <message>
        <source>No scatter: the runs&apos; tasks are judged by different metrics (%1)</source>
        <translation>不绘制散点图：这些运行的任务使用不同的指标（%1）</translation>
    </message>
    <message>
        <source>Peak memory against %1 and duration</source>
        <translation>峰值内存与%1和用时</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>最佳%1</translation>
    </message>
    <message>
        <source>best task metric</source>
        <translation>最佳任务指标</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>The lowest of each run&apos;s evaluations: lower is better</source>
        <translation>每个运行各次评估中的最低值：越低越好</translation>
    </message>
    <message>
        <source>The best of each run&apos;s evaluations by its task&apos;s metric (the lowest for an error such as RMSE)</source>
        <translation>按各自任务的指标取每个运行各次评估中的最佳值（RMSE 等误差取最低值）</translation>
    </message>
    <message>
        <source>lowest %1</source>
        <translation>最低%1</translation>
    </message>
    <message>
        <source>Validation file</source>
        <translation>验证文件</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Text column</source>
        <translation>文本列</translation>
    </message>
    <message>
        <source>Second text column</source>
        <translation>第二文本列</translation>
    </message>
    <message>
        <source>Label column</source>
        <translation>标签列</translation>
    </message>
    <message>
        <source>Label columns</source>
        <translation>标签列（每个标签一列）</translation>
    </message>
    <message>
        <source>Label separator</source>
        <translation>标签分隔符</translation>
    </message>
    <message>
        <source>Standardised targets</source>
        <translation>目标值标准化</translation>
    </message>
    <message>
        <source>Decision threshold</source>
        <translation>判定阈值</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
</context>
<context>
    <name>bert::ui::DatasetPage</name>
    <message>
        <source>&amp;Open dataset…</source>
        <translation>打开数据集(&amp;O)…</translation>
    </message>
    <message>
        <source>Recent</source>
        <translation>最近</translation>
    </message>
    <message>
        <source>No dataset. Open one, or drop a file here.</source>
        <translation>尚无数据集。请打开一个，或将文件拖到此处。</translation>
    </message>
    <message>
        <source>The column with the text to classify</source>
        <translation>要分类的文本所在的列</translation>
    </message>
    <message>
        <source>An optional second text, for pair tasks (e.g. question and answer)</source>
        <translation>可选的第二段文本，用于句对任务（如问题与答案）</translation>
    </message>
    <message>
        <source>The column with the class of each row</source>
        <translation>每行类别所在的列</translation>
    </message>
    <message>
        <source>Share of each class held out for validation (stratified, seeded)</source>
        <translation>每个类别留作验证的比例（分层抽样，可复现）</translation>
    </message>
    <message>
        <source>&amp;Second text column:</source>
        <translation>第二文本列(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Label column:</source>
        <translation>标签列(&amp;L)：</translation>
    </message>
    <message>
        <source>Label counts</source>
        <translation>标签计数</translation>
    </message>
    <message>
        <source>Token lengths</source>
        <translation>词元长度</translation>
    </message>
    <message>
        <source>Open dataset</source>
        <translation>打开数据集</translation>
    </message>
    <message>
        <source>%1 has a single class: a classifier needs at least two labels.</source>
        <translation>%1 只有一个类别：分类器至少需要两个标签。</translation>
    </message>
    <message>
        <source>Choose a model to see token lengths.</source>
        <translation>选择模型后可查看词元长度。</translation>
    </message>
    <message>
        <source>Lengths: half of the examples have up to %1 tokens, 90% up to %2, 99% up to %3: a max length of %3 keeps 99% of them whole.</source>
        <translation>长度：一半样本不超过 %1 个词元，90% 不超过 %2，99% 不超过 %3：最大长度设为 %3 可让 99% 的样本保持完整。</translation>
    </message>
    <message>
        <source>Token lengths (p50 %1, p90 %2, p99 %3)</source>
        <translation>词元长度（p50 %1，p90 %2，p99 %3）</translation>
    </message>
    <message>
        <source>%1 has no column %2.</source>
        <translation>%1 没有列 %2。</translation>
    </message>
    <message>
        <source>At max length %1 and batch %2, padding would be %3 of the tokens with fixed padding, %4 with dynamic padding, %5 with length-grouped batches; unpadded batches compute none of it. %6 examples are longer than %1 tokens and will be truncated.</source>
        <translation>在最大长度 %1、批大小 %2 下，填充词元占比：固定填充 %3，动态填充 %4，按长度分组的批次 %5；不填充的批次完全不计算填充。有 %6 个样本长于 %1 个词元，将被截断。</translation>
    </message>
    <message>
        <source>%1: no label column; choose the column that holds the classes (Label column).</source>
        <translation>%1：没有标签列；请选择包含类别的列（标签列）。</translation>
    </message>
    <message>
        <source>Unknown tokens: %1 of the tokens are not in the model&apos;s vocabulary.</source>
        <translation>未知词元：%1 的词元不在模型词表中。</translation>
    </message>
    <message>
        <source>A CSV, TSV or JSON Lines file with a text column and a label column, or tagged words (CoNLL, JSON Lines of tokens and tags, span JSON)</source>
        <translation>含文本列和标签列的 CSV、TSV 或 JSON Lines 文件，或已标注的词（CoNLL、含 tokens 和 tags 的 JSON Lines、片段 JSON）</translation>
    </message>
    <message>
        <source>What a run learns to predict: one label, any number of labels, a number, or a tag per word</source>
        <translation>运行要学习预测的内容：一个标签、任意多个标签、一个数值，或每个词一个标签</translation>
    </message>
    <message>
        <source>Tas&amp;k:</source>
        <translation>任务(&amp;K)：</translation>
    </message>
    <message>
        <source>Datasets (*.csv *.tsv *.tab *.jsonl *.ndjson *.json *.conll *.bio *.iob *.iobes);;All files (*)</source>
        <translation>数据集 (*.csv *.tsv *.tab *.jsonl *.ndjson *.json *.conll *.bio *.iob *.iobes);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 is a table: token classification reads tagged words (a CoNLL file, JSON Lines of tokens and tags, or span JSON).</source>
        <translation>%1 是表格：词元分类读取已标注的词（CoNLL 文件、含 tokens 和 tags 的 JSON Lines，或片段 JSON）。</translation>
    </message>
    <message>
        <source>%1 holds tagged words: only token classification reads it.</source>
        <translation>%1 包含已标注的词：只有词元分类能读取它。</translation>
    </message>
    <message>
        <source>Guessed from the data: %1 (%2). Change it if it is wrong.</source>
        <translation>根据数据推测：%1（%2）。如有误请更改。</translation>
    </message>
    <message>
        <source>Entities per type</source>
        <translation>各类型的实体数</translation>
    </message>
    <message>
        <source>%1 sentences, %2 words, %3 entities of %4 types; tag scheme %5.</source>
        <translation>%1 个句子，%2 个词，%4 种类型共 %3 个实体；标注方案 %5。</translation>
    </message>
    <message>
        <source>Examples per label</source>
        <translation>各标签的样本数</translation>
    </message>
    <message>
        <source>Label co-occurrence: examples that have both labels</source>
        <translation>标签共现：同时带有两个标签的样本数</translation>
    </message>
    <message>
        <source>%1 has a single label: a multi-label task needs at least two. Is the separator right?</source>
        <translation>%1 只有一个标签：多标签任务至少需要两个。分隔符是否正确？</translation>
    </message>
    <message>
        <source>Target histogram</source>
        <translation>目标值直方图</translation>
    </message>
    <message>
        <source>a CoNLL file of tagged words</source>
        <translation>已标注词的 CoNLL 文件</translation>
    </message>
    <message>
        <source>one 0/1 column per label</source>
        <translation>每个标签一个 0/1 列</translation>
    </message>
    <message>
        <source>JSON lines of tokens and their tags</source>
        <translation>含词元及其标签的 JSON Lines</translation>
    </message>
    <message>
        <source>JSON lines of entity spans over texts</source>
        <translation>在文本上标注实体片段的 JSON Lines</translation>
    </message>
    <message>
        <source>the data could not be read to guess</source>
        <translation>无法读取数据来推测</translation>
    </message>
    <message>
        <source>one label per text</source>
        <translation>每个文本一个标签</translation>
    </message>
    <message>
        <source>the label column holds several labels per row</source>
        <translation>标签列每行有多个标签</translation>
    </message>
    <message>
        <source>the label column holds numbers</source>
        <translation>标签列为数值</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation>标签：</translation>
    </message>
    <message>
        <source>%1: %2 hold only 0 and 1</source>
        <translation>%1：%2 只含 0 和 1</translation>
    </message>
    <message>
        <source>Label columns</source>
        <translation>标签列</translation>
    </message>
    <message>
        <source>%1: only one of the chosen columns has any 1: a multi-label task needs at least two labels.</source>
        <translation>%1：所选列中只有一列含有 1：多标签任务至少需要两个标签。</translation>
    </message>
    <message>
        <source>Standardise the target (train on zero mean, unit variance; undone at prediction)</source>
        <translation>标准化目标值（训练时均值为零、方差为一；预测时还原）</translation>
    </message>
    <message>
        <source>The model&apos;s output starts near zero: a target far from zero or on a large scale (say 5 to 8, or 0 to 1000) is learnt slowly and badly. Training on (target − mean) ÷ standard deviation of the training rows fixes that; predictions are turned back into the target&apos;s units.</source>
        <translation>模型的输出从零附近开始：远离零或量级很大的目标值（例如 5 到 8，或 0 到 1000）学得又慢又差。用训练行的（目标值 − 均值）÷ 标准差来训练可以解决这个问题；预测值会换算回目标值原来的单位。</translation>
    </message>
    <message>
        <source>Chosen by hand: %1. The data looked like %2 (%3).</source>
        <translation>手动选择：%1。数据看起来像%2（%3）。</translation>
    </message>
    <message>
        <source>t&amp;uned on validation</source>
        <translation>在验证集上调优(&amp;U)</translation>
    </message>
    <message>
        <source>After each evaluation, the threshold with the best micro-F1 on the validation rows</source>
        <translation>每次评估后，取在验证行上微平均 F1 最高的阈值</translation>
    </message>
    <message>
        <source>&amp;fixed at</source>
        <translation>固定为(&amp;F)</translation>
    </message>
    <message>
        <source>A label is predicted when its probability reaches this</source>
        <translation>标签的概率达到此值时即预测该标签</translation>
    </message>
    <message>
        <source>Decision thres&amp;hold:</source>
        <translation>决策阈值(&amp;H)：</translation>
    </message>
    <message numerus="yes">
        <source>%n rows without text or label skipped</source>
        <translation>
            <numerusform>跳过了 %n 行没有文本或标签的行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rows without text skipped</source>
        <translation>
            <numerusform>跳过了 %n 行没有文本的行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n invalid UTF-8 sequences replaced</source>
        <translation>
            <numerusform>替换了 %n 个无效的 UTF-8 序列</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n examples with %1 labels from their 0/1 columns, %2 labels per example on average.</source>
        <translation>
            <numerusform>%n 个样本，%1 个标签来自各自的 0/1 列，平均每个样本 %2 个标签。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n examples with %1 labels, %2 labels per example on average (separator “%3”).</source>
        <translation>
            <numerusform>%n 个样本，%1 个标签，平均每个样本 %2 个标签（分隔符“%3”）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with no label (kept: training reads them as examples with none of the labels).</source>
        <translation>
            <numerusform>其中 %n 个没有标签（保留：训练时把它们当作不带任何标签的样本）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The table counts the examples that have both labels.</source>
        <translation>表格统计同时带有两个标签的样本数。</translation>
    </message>
    <message numerus="yes">
        <source>%n examples; target “%1” from %2 to %3, mean %4, standard deviation %5.</source>
        <translation>
            <numerusform>%n 个样本；目标“%1”从 %2 到 %3，均值 %4，标准差 %5。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n examples in %1 classes.</source>
        <translation>
            <numerusform>%n 个样本，共 %1 个类别。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 stays open.</source>
        <translation>%1 仍保持打开。</translation>
    </message>
    <message>
        <source>Guessing the task of %1…</source>
        <translation>正在推测 %1 的任务…</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Reading the examples of %1…</source>
        <translation>正在读取 %1 的样本…</translation>
    </message>
    <message>
        <source>Reading %1 was cancelled.</source>
        <translation>已取消读取 %1。</translation>
    </message>
    <message>
        <source>Te&amp;xt column:</source>
        <translation>文本列(&amp;X)：</translation>
    </message>
    <message>
        <source>Vali&amp;dation share:</source>
        <translation>验证比例(&amp;D)：</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop waiting for this file; the file open before stays open</source>
        <translation>不再等待读取此文件；之前打开的文件保持打开</translation>
    </message>
    <message>
        <source>(the first on line %1)</source>
        <translation>（第一行在第 %1 行）</translation>
    </message>
    <message>
        <source>read as %1 (the file is not UTF-8)</source>
        <translation>按 %1 编码读取（该文件不是 UTF-8）</translation>
    </message>
    <message numerus="yes">
        <source>%n control characters removed (the first, %1, on line %2 in the header)</source>
        <translation>
            <numerusform>删除了 %n 个控制字符（第一个是 %1，在第 %2 行的表头）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n control characters removed (the first, %1, on line %2 in column &quot;%3&quot;)</source>
        <translation>
            <numerusform>删除了 %n 个控制字符（第一个是 %1，在第 %2 行的“%3”列）</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose a model for this language in Model &amp; techniques (a transformers folder, for example one in the local model cache, ~/.cache/huggingface/hub).</source>
        <translation>请在“模型与技术”中为这种语言选择模型（一个 transformers 文件夹，例如本地模型缓存 ~/.cache/huggingface/hub 中的一个）。</translation>
    </message>
    <message>
        <source>Long texts: %1 of the examples are longer than %2 tokens; windows of %2 tokens with a stride of %3 make %4 windows, %5 per example.</source>
        <translation>长文本：%1 的样本超过 %2 个词元；%2 个词元的窗口、步幅 %3，共得到 %4 个窗口，平均每个样本 %5 个。</translation>
    </message>
    <message>
        <source>Long texts: %1 of the examples are longer than %2 tokens; each keeps its first %3 tokens and its last ones.</source>
        <translation>长文本：%1 的样本超过 %2 个词元；每个样本保留开头 %3 个词元和结尾的词元。</translation>
    </message>
    <message>
        <source>At max length %1 and batch %2, padding would be %3 of the tokens with fixed padding, %4 with dynamic padding, %5 with length-grouped batches; unpadded batches compute none of it.</source>
        <translation>在最大长度 %1、批大小 %2 下，填充词元占比：固定填充 %3，动态填充 %4，按长度分组的批次 %5；不填充的批次完全不计算填充。</translation>
    </message>
    <message>
        <source>Long texts: at max length %1 a window holds %2 tokens of text; the %3 must be smaller. Training would refuse it.</source>
        <translation>长文本：最大长度为 %1 时，一个窗口可容纳 %2 个文本词元；%3必须小于它，否则训练会拒绝。</translation>
    </message>
    <message>
        <source>window stride</source>
        <translation>窗口步幅</translation>
    </message>
    <message>
        <source>head tokens</source>
        <translation>开头词元数</translation>
    </message>
    <message>
        <source>Long texts (Training tab): head+tail would keep their ends at the same cost; windows of %1 tokens with a stride of %2 would read them whole: %3 windows, %4 per example.</source>
        <translation>长文本（训练页）：首尾方式能以相同代价保留它们的结尾；长 %1 个词元、重叠 %2 个的窗口能读完整段文本：共 %3 个窗口，每个样本 %4 个。</translation>
    </message>
</context>
<context>
    <name>bert::ui::ExamplesView</name>
    <message>
        <source>Search the texts, truths and predictions</source>
        <translation>搜索文本、真实值和预测</translation>
    </message>
    <message>
        <source>&amp;Wrong only</source>
        <translation>只看错误(&amp;W)</translation>
    </message>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>P(truth)</source>
        <translation>真实值概率</translation>
    </message>
    <message>
        <source>Truth</source>
        <translation>真实值</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Missed</source>
        <translation>漏掉</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>多出</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Double-click an example (or press Enter) to try it in Try it.</source>
        <translation>双击一个示例（或按回车）可在“试用”中试用它。</translation>
    </message>
    <message>
        <source>Sea&amp;rch:</source>
        <translation>搜索(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;True:</source>
        <translation>真实(&amp;T)：</translation>
    </message>
    <message>
        <source>Pre&amp;dicted:</source>
        <translation>预测(&amp;D)：</translation>
    </message>
    <message>
        <source>This run kept no per-example results: it was not evaluated, or it was trained by a version of BERT Studio that did not keep them.</source>
        <translation>此运行没有保存逐个示例的结果：它没有经过评估，或者训练它的 BERT Studio 版本不保存这些结果。</translation>
    </message>
    <message>
        <source>The evaluation at step %1 (the best): all %2 validation examples, highest loss first.</source>
        <translation>第 %1 步的评估（最佳）：全部 %2 个验证示例，损失最高的在前。</translation>
    </message>
    <message>
        <source>The evaluation at step %1 (the best): the %2 of %3 validation examples with the highest loss, highest first.</source>
        <translation>第 %1 步的评估（最佳）：%3 个验证示例中损失最高的 %2 个，最高的在前。</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>残差</translation>
    </message>
</context>
<context>
    <name>bert::ui::HelpDialog</name>
    <message>
        <source>Memory techniques</source>
        <translation>省内存技术</translation>
    </message>
    <message>
        <source>Each switch on Model &amp; techniques saves memory at a cost, said here and in its tooltip. The forecast bar shows the peak of a training step and of an evaluation against the device or the memory cap; when either does not fit, the page names the change that loses the least time, which one click applies and another undoes. A run that still runs out of memory halves its micro-batch and doubles the accumulation, so the effective batch stays.</source>
        <translation>“模型与技术”页上的每个开关都以一定代价节省内存，代价写在这里和它的提示中。预测条显示训练一步和一次评估的峰值，并与设备内存或内存上限对比；任一放不下时，页面会给出耗时最少的更改，点一下即可应用，再点一下即可撤销。仍然内存不足的运行会把微批次减半、累积步数加倍，有效批大小保持不变。</translation>
    </message>
    <message>
        <source>Before a long run</source>
        <translation>长时间运行之前</translation>
    </message>
    <message>
        <source>Set the memory cap to the memory of the machine the run is meant for: the forecast, Largest batch that fits and the run itself then behave as they would there. The dataset tab shows the token lengths, the padding each batching wastes, and the share of tokens the model&apos;s vocabulary cannot read.</source>
        <translation>把内存上限设为目标机器的内存：预测、“可容纳的最大批次”以及运行本身都会像在那台机器上一样。数据集页显示词元长度、各种分批方式浪费的填充，以及模型词表无法读取的词元比例。</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Alt with the underlined letter of a tab, a button or a field&apos;s label goes there.</source>
        <translation>按 Alt 加选项卡、按钮或字段标签中带下划线的字母即可跳到那里。</translation>
    </message>
    <message>
        <source>BERT Studio guide</source>
        <translation>BERT Studio 指南</translation>
    </message>
    <message>
        <source>&amp;Techniques</source>
        <translation>技术(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Shortcuts</source>
        <translation>快捷键(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
</context>
<context>
    <name>bert::ui::LabelColumnsChoice</name>
    <message>
        <source>In one column, se&amp;parated by</source>
        <translation>在同一列中，分隔符为(&amp;P)</translation>
    </message>
    <message>
        <source>The character between the labels of a cell (multi-label)</source>
        <translation>单元格中分隔各标签的字符（多标签）</translation>
    </message>
    <message>
        <source>One 0/1 col&amp;umn per label</source>
        <translation>每个标签一个 0/1 列(&amp;U)</translation>
    </message>
    <message>
        <source>Each label has its own column: 1 (or true) where a row has the label, 0 (or false) where it does not</source>
        <translation>每个标签各占一列：行带有该标签时为 1（或 true），否则为 0（或 false）</translation>
    </message>
    <message>
        <source>Check the label columns: each holds 1 (or true) where a row has the label, 0 (or false) where it does not.</source>
        <translation>勾选标签列：行带有该标签时该列为 1（或 true），否则为 0（或 false）。</translation>
    </message>
</context>
<context>
    <name>bert::ui::MainWindow</name>
    <message>
        <source>BERT Studio</source>
        <translation>BERT Studio</translation>
    </message>
    <message>
        <source>&amp;1 Dataset</source>
        <translation>&amp;1 数据集</translation>
    </message>
    <message>
        <source>&amp;2 Model &amp;&amp; techniques</source>
        <translation>&amp;2 模型与技术</translation>
    </message>
    <message>
        <source>&amp;3 Training</source>
        <translation>&amp;3 训练</translation>
    </message>
    <message>
        <source>&amp;4 Runs</source>
        <translation>&amp;4 运行记录</translation>
    </message>
    <message>
        <source>&amp;5 Try it</source>
        <translation>&amp;5 试用</translation>
    </message>
    <message>
        <source>Training could not start</source>
        <translation>无法开始训练</translation>
    </message>
    <message>
        <source>Runs are stored in %1</source>
        <translation>运行记录保存在 %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open dataset…</source>
        <translation>打开数据集(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Export a run&apos;s model…</source>
        <translation>导出运行的模型(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Dark palette</source>
        <translation>深色配色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The language changes when BERT Studio starts again.</source>
        <translation>语言将在 BERT Studio 重新启动后生效。</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About BERT Studio</source>
        <translation>关于 BERT Studio(&amp;A)</translation>
    </message>
    <message>
        <source>About BERT Studio</source>
        <translation>关于 BERT Studio</translation>
    </message>
    <message>
        <source>&lt;b&gt;BERT Studio&lt;/b&gt; %1&lt;br&gt;Fine-tune BERT classifiers without running out of memory.&lt;br&gt;Runs: %2</source>
        <translation>&lt;b&gt;BERT Studio&lt;/b&gt; %1&lt;br&gt;微调 BERT 分类器，不再内存溢出。&lt;br&gt;运行记录：%2</translation>
    </message>
    <message>
        <source>Start training</source>
        <translation>开始训练</translation>
    </message>
    <message>
        <source>Open a dataset first.</source>
        <translation>请先打开数据集。</translation>
    </message>
    <message>
        <source>Cancelling after the current micro-batch…</source>
        <translation>将在当前微批次结束后取消…</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>训练正在进行</translation>
    </message>
    <message>
        <source>Stop the run and close? The run keeps everything it recorded and can resume from its checkpoint.</source>
        <translation>停止运行并关闭？运行会保留已记录的全部数据，并可从检查点继续。</translation>
    </message>
    <message>
        <source>Run &amp;database…</source>
        <translation>运行记录数据库(&amp;D)…</translation>
    </message>
    <message>
        <source>Run database</source>
        <translation>运行记录数据库</translation>
    </message>
    <message>
        <source>Run databases (*.sqlite)</source>
        <translation>运行记录数据库 (*.sqlite)</translation>
    </message>
    <message>
        <source>BERT Studio uses %1 from its next start.</source>
        <translation>BERT Studio 将从下次启动起使用 %1。</translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation>可容纳的最大批次</translation>
    </message>
    <message>
        <source>Open a dataset to see what a run will train on.</source>
        <translation>打开数据集后可查看运行将用什么数据训练。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Label column “%1”: %n classes, %2. Text: %3. %4 examples for training, %5 for validation.</source>
        <translation>
            <numerusform>标签列“%1”：%n 个类别，%2。文本：%3。%4 个样本用于训练，%5 个用于验证。</numerusform>
        </translation>
    </message>
    <message>
        <source>The label column has a single value: there is nothing to learn. Choose another label column.</source>
        <translation>标签列只有一个值：没有可学习的内容。请选择其他标签列。</translation>
    </message>
    <message>
        <source>The label column is also a text column: the model would read the answer. Choose different columns.</source>
        <translation>标签列同时也是文本列：模型会直接读到答案。请选择不同的列。</translation>
    </message>
    <message>
        <source>The label column has %1 different values in %2 rows: is it an id or a text column? Choose the column that holds the classes.</source>
        <translation>标签列在 %2 行中有 %1 个不同的值：它是 ID 列还是文本列？请选择包含类别的列。</translation>
    </message>
    <message>
        <source>The model&apos;s head was trained for %1 labels (%2); this column has %3 values, so the head will be made anew. Is this the right label column?</source>
        <translation>模型的分类头是为 %1 个标签（%2）训练的；此列有 %3 个值，因此分类头将重新创建。这是正确的标签列吗？</translation>
    </message>
    <message>
        <source>Finding the largest micro-batch that fits: forecast, then a trial step…</source>
        <translation>正在寻找可容纳的最大微批次：先预测，再试运行一步…</translation>
    </message>
    <message>
        <source>Not even a micro-batch of 1 fits in %1. Turn on memory techniques or shorten the max length.</source>
        <translation>%1 中连大小为 1 的微批次都放不下。请开启省内存技术或缩短最大长度。</translation>
    </message>
    <message>
        <source>Micro-batch %1 × accumulation %2 (effective batch %3): forecast %4, trial step %5 of %6</source>
        <translation>微批次 %1 × 累积 %2（有效批大小 %3）：预测 %4，试运行步 %5，上限 %6</translation>
    </message>
    <message>
        <source>Wait until the largest batch is found, then start.</source>
        <translation>请等找到最大批次后再开始。</translation>
    </message>
    <message>
        <source>Open &amp;job…</source>
        <translation>打开任务(&amp;J)…</translation>
    </message>
    <message>
        <source>Open job</source>
        <translation>打开任务</translation>
    </message>
    <message>
        <source>Job files (*.json)</source>
        <translation>任务文件 (*.json)</translation>
    </message>
    <message>
        <source>&amp;Save job…</source>
        <translation>保存任务(&amp;S)…</translation>
    </message>
    <message>
        <source>Save job</source>
        <translation>保存任务</translation>
    </message>
    <message>
        <source>Train again</source>
        <translation>再次训练</translation>
    </message>
    <message>
        <source>Run %1&apos;s dataset, model and settings are in the form: change what you want to compare, then Start.</source>
        <translation>运行 %1 的数据集、模型和设置已载入表单：修改想要比较的部分，然后开始。</translation>
    </message>
    <message>
        <source>Saved to %1; bert-studio-cli train --config reads it too.</source>
        <translation>已保存到 %1；bert-studio-cli train --config 也能读取它。</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>Continue the last cancelled or interrupted run from its checkpoint</source>
        <translation>从检查点继续上一个被取消或中断的运行</translation>
    </message>
    <message>
        <source>&amp;Guide to the techniques</source>
        <translation>技术指南(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Start training (dataset, techniques and training tabs)</source>
        <translation>开始训练（数据集、技术和训练选项卡）</translation>
    </message>
    <message>
        <source>Classify the text (Try it)</source>
        <translation>对文本分类（试用）</translation>
    </message>
    <message>
        <source>Delete the selected runs (Runs)</source>
        <translation>删除选中的运行（运行记录）</translation>
    </message>
    <message>
        <source>The suggested change was undone.</source>
        <translation>已撤销建议的更改。</translation>
    </message>
    <message>
        <source>Applied: %1. “Undo the change” restores the settings before it.</source>
        <translation>已应用：%1。“撤销更改”可恢复之前的设置。</translation>
    </message>
    <message>
        <source>Unknown tokens: %1%.</source>
        <translation>未知词元：%1%。</translation>
    </message>
    <message>
        <source>Starting a run: reading and tokenising the data…</source>
        <translation>正在开始运行：读取数据并分词…</translation>
    </message>
    <message>
        <source>Resuming run %1: loading its checkpoint…</source>
        <translation>正在继续运行 %1：加载检查点…</translation>
    </message>
    <message>
        <source>Run %1 resumed: preparing…</source>
        <translation>运行 %1 已继续：准备中…</translation>
    </message>
    <message>
        <source>Run %1 created: preparing…</source>
        <translation>已创建运行 %1：准备中…</translation>
    </message>
    <message>
        <source>Run %1 is training.</source>
        <translation>运行 %1 正在训练。</translation>
    </message>
    <message>
        <source>%1 (from scratch)</source>
        <translation>%1（从头训练）</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1，数据 %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Rename run %1</source>
        <translation>重命名运行 %1</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续训练</translation>
    </message>
    <message>
        <source>Task: %1. %2 examples for training, %3 for validation.</source>
        <translation>任务：%1。%2 个样本用于训练，%3 个用于验证。</translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation>运行 %1：%2</translation>
    </message>
    <message>
        <source>Re&amp;fresh runs</source>
        <translation>刷新运行记录(&amp;F)</translation>
    </message>
</context>
<context>
    <name>bert::ui::MetricsCharts</name>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Validation accuracy and macro-F1</source>
        <translation>验证准确率与宏 F1</translation>
    </message>
    <message>
        <source>score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>macro-F1</source>
        <translation>宏 F1</translation>
    </message>
    <message>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>training (raw)</source>
        <translation>训练（原始）</translation>
    </message>
    <message>
        <source>cap</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>Exponential moving average of the training loss; the raw loss stays, faint. 0: raw.</source>
        <translation>训练损失的指数移动平均；原始损失以浅色保留。0：原始值。</translation>
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation>重置缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>Drag a rectangle on a chart to zoom; this shows everything again.</source>
        <translation>在图表上拖出矩形可放大；点此恢复显示全部。</translation>
    </message>
    <message>
        <source>%1 at step %2: %3</source>
        <translation>%1，第 %2 步：%3</translation>
    </message>
    <message>
        <source>peak, rank %1</source>
        <translation>峰值，rank %1</translation>
    </message>
    <message>
        <source>Validation %1 and %2</source>
        <translation>验证%1和%2</translation>
    </message>
    <message>
        <source>error (target units)</source>
        <translation>误差（目标单位）</translation>
    </message>
    <message>
        <source>Smoothin&amp;g:</source>
        <translation>平滑(&amp;G)：</translation>
    </message>
</context>
<context>
    <name>bert::ui::ModelPicker</name>
    <message>
        <source>%1 M</source>
        <translation>%1 M</translation>
    </message>
    <message>
        <source>%1 k</source>
        <translation>%1 k</translation>
    </message>
    <message>
        <source>The bundled model and the models of the local Hugging Face cache (%1) that the studio can train. Nothing is downloaded.</source>
        <translation>自带的模型，以及本机 Hugging Face 缓存（%1）中本工作室可以训练的模型。不会下载任何内容。</translation>
    </message>
    <message>
        <source>Rescan</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <source>Read the Hugging Face cache again, for models downloaded since</source>
        <translation>重新读取 Hugging Face 缓存，以列出之后下载的模型</translation>
    </message>
    <message>
        <source>Choose a model</source>
        <translation>选择模型</translation>
    </message>
    <message>
        <source>all-MiniLM-L6-v2 (bundled)</source>
        <translation>all-MiniLM-L6-v2（自带）</translation>
    </message>
    <message>
        <source>%1 — %2, %3 parameters, vocabulary %4, up to %5 tokens</source>
        <translation>%1 — %2，%3 个参数，词表 %4，最多 %5 个词元</translation>
    </message>
    <message>
        <source>Another folder (type it or browse below)</source>
        <translation>其他文件夹（在下方输入或浏览）</translation>
    </message>
</context>
<context>
    <name>bert::ui::ModelReport</name>
    <message>
        <source>step %1 (epoch %2): accuracy %3, macro-F1 %4</source>
        <translation>第 %1 步（第 %2 轮）：准确率 %3，宏 F1 %4</translation>
    </message>
    <message>
        <source> — best</source>
        <translation> — 最佳</translation>
    </message>
    <message>
        <source> — last</source>
        <translation> — 最后</translation>
    </message>
    <message>
        <source>&amp;Shares of each true label</source>
        <translation>按真实标签的比例(&amp;S)</translation>
    </message>
    <message>
        <source>Each row divided by its true label&apos;s count: the diagonal is that class&apos;s recall.</source>
        <translation>每行除以该真实标签的样本数：对角线即该类别的召回率。</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>&amp;Evaluation:</source>
        <translation>评估(&amp;E)：</translation>
    </message>
    <message>
        <source>Confusion matrix (rows: true label, columns: predicted)</source>
        <translation>混淆矩阵（行：真实标签，列：预测标签）</translation>
    </message>
    <message>
        <source>Per class</source>
        <translation>按类别</translation>
    </message>
    <message>
        <source>This run has no evaluation yet.</source>
        <translation>此运行尚无评估。</translation>
    </message>
    <message>
        <source>Accuracy %1, macro-F1 %2, validation loss %3 over %4 examples.</source>
        <translation>准确率 %1，宏 F1 %2，验证损失 %3，共 %4 个样本。</translation>
    </message>
    <message>
        <source>“%1” is never predicted: its %2 validation examples are all given other labels. Try class weighting (balanced), more epochs or a higher learning rate.</source>
        <translation>“%1”从未被预测：它的 %2 个验证样本全都被判为其他标签。请尝试类别加权（均衡）、更多轮数或更高的学习率。</translation>
    </message>
    <message>
        <source>The labels are imbalanced: “%1” is %2% of the validation set, “%3” %4%. Judge the model by macro-F1 and per-class recall, not accuracy.</source>
        <translation>标签不均衡：“%1”占验证集的 %2%，“%3”占 %4%。请用宏 F1 和各类别召回率而不是准确率来评判模型。</translation>
    </message>
    <message>
        <source>Accuracy %1 is far above macro-F1 %2: the smaller classes are mostly missed.</source>
        <translation>准确率 %1 远高于宏 F1 %2：较小的类别大多被漏判。</translation>
    </message>
    <message>
        <source>step %1 (epoch %2): %3 %4</source>
        <translation>第 %1 步（第 %2 轮）：%3 %4</translation>
    </message>
    <message>
        <source>Validation loss %1.</source>
        <translation>验证损失 %1。</translation>
    </message>
    <message numerus="yes">
        <source>, … and %n more</source>
        <translation>
            <numerusform>，……另有 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n classes never predicted: %1. Their %2 validation examples are all given other labels. Try class weighting (balanced), more epochs or a higher learning rate.</source>
        <translation>
            <numerusform>%n 个类别从未被预测：%1。它们的 %2 个验证样本全部被判为其他标签。可尝试类别加权（balanced）、更多轮数或更高的学习率。</numerusform>
        </translation>
    </message>
    <message>
        <source>Rows: the true label. Columns: the predicted label. Click a cell to list its examples (of the best evaluation).</source>
        <translation>行：真实标签。列：预测标签。点击一个单元格可列出它的示例（来自最佳评估）。</translation>
    </message>
</context>
<context>
    <name>bert::ui::OptionForm</name>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Batching</source>
        <translation>批处理</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Optimisation</source>
        <translation>优化</translation>
    </message>
    <message>
        <source>Device and outputs</source>
        <translation>设备与输出</translation>
    </message>
    <message>
        <source>Not offered on a CPU: it has no fast fp16 arithmetic, and fp16 needs loss scaling. bf16 keeps fp32&apos;s range.</source>
        <translation>CPU 上不提供：CPU 没有快速的 fp16 运算，且 fp16 需要损失缩放。bf16 保持 fp32 的数值范围。</translation>
    </message>
    <message>
        <source>This CPU has bf16 instructions: about as fast as fp32. CPU attention computes in fp32, so it saves little memory.</source>
        <translation>此 CPU 支持 bf16 指令：速度与 fp32 相当。CPU 上的注意力以 fp32 计算，因此省内存不多。</translation>
    </message>
    <message>
        <source>About 4x slower on this CPU, which lacks bf16 instructions (AVX512-BF16, AMX), and CPU attention computes in fp32, so it saves little memory.</source>
        <translation>在此 CPU 上约慢 4 倍（缺少 AVX512-BF16、AMX 等 bf16 指令），且 CPU 上的注意力以 fp32 计算，因此省内存不多。</translation>
    </message>
    <message>
        <source>Tensor cores: faster than fp32, and activations take half the memory.</source>
        <translation>张量核心：比 fp32 更快，激活只占一半内存。</translation>
    </message>
    <message>
        <source>This GPU has no %1 tensor cores: slower than fp32.</source>
        <translation>此 GPU 没有 %1 张量核心：比 fp32 更慢。</translation>
    </message>
    <message>
        <source>Takes effect with two or more data-parallel processes.</source>
        <translation>在两个或更多数据并行进程时生效。</translation>
    </message>
</context>
<context>
    <name>bert::ui::ReliabilityDiagram</name>
    <message>
        <source>Expected calibration error: the predictions grouped into 15 bins by their confidence, the mean gap between each bin&apos;s confidence and its accuracy, weighted by its share of the examples (Guo et al. 2017). 0: a probability of 0.8 is right 8 times in 10.</source>
        <translation>期望校准误差：按置信度把预测分成 15 个区间，每个区间的置信度与准确率之差，按其样本占比加权平均（郭川等，2017）。0 表示概率为 0.8 的预测十次对八次。</translation>
    </message>
    <message>
        <source>Reliability diagram</source>
        <translation>可靠性图</translation>
    </message>
    <message>
        <source>Expected calibration error (ECE) %1.</source>
        <translation>期望校准误差 %1。</translation>
    </message>
    <message>
        <source>At temperature %1, fitted on the validation set: ECE %2 (the labels predicted stay the same).</source>
        <translation>在验证集上拟合的温度 %1 下：期望校准误差 %2（预测的标签不变）。</translation>
    </message>
    <message>
        <source>Temperature scaling is on: predict, Try it and exports use it.</source>
        <translation>温度缩放已开启：预测、试用和导出都会使用它。</translation>
    </message>
    <message>
        <source>Turn on Temperature scaling (Training tab) for predictions to use it.</source>
        <translation>在训练页开启“温度缩放”，预测才会使用它。</translation>
    </message>
    <message>
        <source>No temperature: %1.</source>
        <translation>没有温度：%1。</translation>
    </message>
    <message>
        <source>calibrated</source>
        <translation>完全校准</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>This evaluation has no calibration figures.</source>
        <translation>这次评估没有校准数据。</translation>
    </message>
    <message>
        <source>Expected calibration error (ECE) %1, every label&apos;s probability against whether the label is present.</source>
        <translation>期望校准误差 %1，每个标签的概率对照该标签是否出现。</translation>
    </message>
    <message>
        <source>a label&apos;s probability</source>
        <translation>标签的概率</translation>
    </message>
    <message>
        <source>confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>share present</source>
        <translation>出现的占比</translation>
    </message>
    <message>
        <source>as trained</source>
        <translation>训练所得</translation>
    </message>
    <message>
        <source>at T = %1</source>
        <translation>温度 %1 下</translation>
    </message>
</context>
<context>
    <name>bert::ui::RunDialog</name>
    <message>
        <source>Run %1: %2</source>
        <translation>运行 %1：%2</translation>
    </message>
    <message>
        <source>Save charts as &amp;PNG…</source>
        <translation>将图表保存为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>Save charts</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>%1 could not be written.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Export metrics as &amp;CSV…</source>
        <translation>将指标导出为 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>导出指标</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Curves</source>
        <translation>曲线(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Model quality</source>
        <translation>模型质量(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>示例(&amp;X)</translation>
    </message>
</context>
<context>
    <name>bert::ui::RunsPage</name>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Techniques</source>
        <translation>技术</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>用时</translation>
    </message>
    <message>
        <source>Filter runs (name, status, model, techniques…)</source>
        <translation>筛选运行（名称、状态、模型、技术…）</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Show the run&apos;s charts</source>
        <translation>显示该运行的图表</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>比较(&amp;M)</translation>
    </message>
    <message>
        <source>Overlay two or more selected runs</source>
        <translation>叠加两个或更多选中的运行</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Select two or more runs (Ctrl+click).</source>
        <translation>请选择两个或更多运行（Ctrl+单击）。</translation>
    </message>
    <message>
        <source>&amp;Notes…</source>
        <translation>备注(&amp;N)…</translation>
    </message>
    <message>
        <source>Write notes on the run</source>
        <translation>为该运行写备注</translation>
    </message>
    <message>
        <source>E&amp;xport model…</source>
        <translation>导出模型(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Reload the runs (F5)</source>
        <translation>重新加载运行记录 (F5)</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Notes on run %1:</source>
        <translation>运行 %1 的备注：</translation>
    </message>
    <message>
        <source>Export model</source>
        <translation>导出模型</translation>
    </message>
    <message>
        <source>Select one run.</source>
        <translation>请选择一个运行。</translation>
    </message>
    <message>
        <source>The runs cannot be listed: %1</source>
        <translation>无法列出运行：%1</translation>
    </message>
    <message>
        <source>Open run %1</source>
        <translation>打开运行 %1</translation>
    </message>
    <message>
        <source>Rename run %1</source>
        <translation>重命名运行 %1</translation>
    </message>
    <message>
        <source>Train &amp;again</source>
        <translation>再次训练(&amp;A)</translation>
    </message>
    <message>
        <source>Load the selected run&apos;s dataset, model and settings into the form, to train again or change one thing</source>
        <translation>把所选运行的数据集、模型和设置载入表单，以便再次训练或只改一处</translation>
    </message>
    <message>
        <source>Export the model into a new folder</source>
        <translation>将模型导出到新文件夹</translation>
    </message>
    <message>
        <source>Write the run&apos;s model as a transformers folder or as ONNX, with a run card</source>
        <translation>将该运行的模型写为 transformers 文件夹或 ONNX，并附运行卡片</translation>
    </message>
    <message>
        <source>Exported run %1 to %2. Its README.md says how to load it.</source>
        <translation>已将运行 %1 导出到 %2。其中的 README.md 说明了如何加载。</translation>
    </message>
    <message>
        <source>transformers folder (model.safetensors)</source>
        <translation>transformers 文件夹 (model.safetensors)</translation>
    </message>
    <message>
        <source>ONNX for ONNX Runtime (model.onnx)</source>
        <translation>用于 ONNX Runtime 的 ONNX (model.onnx)</translation>
    </message>
    <message>
        <source>On disk</source>
        <translation>磁盘占用</translation>
    </message>
    <message>
        <source>Remove check&amp;points…</source>
        <translation>删除检查点(&amp;P)…</translation>
    </message>
    <message>
        <source>Free the disk the selected runs&apos; checkpoints take, keeping their records: metrics, charts and settings stay</source>
        <translation>释放选中运行的检查点所占的磁盘，保留其记录：指标、图表和设置都会保留</translation>
    </message>
    <message>
        <source>Delete the selected runs and their checkpoints (Delete)</source>
        <translation>删除选中的运行及其检查点 (Delete)</translation>
    </message>
    <message>
        <source>Double-click a name to rename a run; double-click a row to open it; Delete deletes the selected runs.</source>
        <translation>双击名称可重命名运行；双击一行可打开它；按 Delete 删除选中的运行。</translation>
    </message>
    <message>
        <source>Remove checkpoints</source>
        <translation>删除检查点</translation>
    </message>
    <message>
        <source>Freed %1; the runs&apos; records stay.</source>
        <translation>已释放 %1；运行记录保留。</translation>
    </message>
    <message>
        <source>Select the runs first.</source>
        <translation>请先选择运行。</translation>
    </message>
    <message>
        <source>Best task metric</source>
        <translation>最佳任务指标</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Delete run %1 with its metrics and checkpoints? This cannot be undone.</source>
        <translation>删除运行 %1 及其指标和检查点？此操作无法撤销。</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n runs with their metrics and checkpoints? This cannot be undone.</source>
        <translation>
            <numerusform>删除 %n 个运行及其指标和检查点？此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove the checkpoints of run %1? Its metrics, charts and settings stay, but it can no longer be resumed, exported or tried.</source>
        <translation>删除运行 %1 的检查点？其指标、图表和设置会保留，但将无法再继续、导出或试用。</translation>
    </message>
    <message numerus="yes">
        <source>Remove the checkpoints of %n runs? Their metrics, charts and settings stay, but they can no longer be resumed, exported or tried.</source>
        <translation>
            <numerusform>删除 %n 个运行的检查点？它们的指标、图表和设置会保留，但将无法再继续、导出或试用。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
</context>
<context>
    <name>bert::ui::TaskReport</name>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>支持数</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测数</translation>
    </message>
    <message>
        <source>Per label, at threshold %1 (tuned on validation: %2)</source>
        <translation>各标签，阈值 %1（在验证集上调优：%2）</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Threshold curve</source>
        <translation>阈值曲线</translation>
    </message>
    <message>
        <source>decision threshold</source>
        <translation>决策阈值</translation>
    </message>
    <message>
        <source>score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Predicted against true (validation)</source>
        <translation>预测值与真实值（验证集）</translation>
    </message>
    <message>
        <source>examples</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>predicted = true</source>
        <translation>预测值 = 真实值</translation>
    </message>
    <message>
        <source>true</source>
        <translation>真实值</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测值</translation>
    </message>
    <message>
        <source>Residuals (predicted − true)</source>
        <translation>残差（预测值 − 真实值）</translation>
    </message>
    <message>
        <source>Entities per type (exact span and type, as seqeval scores them)</source>
        <translation>各类型实体（片段与类型完全一致，与 seqeval 的计分方式相同）</translation>
    </message>
    <message>
        <source>Entity type</source>
        <translation>实体类型</translation>
    </message>
    <message>
        <source>spurious</source>
        <translation>误报</translation>
    </message>
    <message>
        <source>missed</source>
        <translation>漏报</translation>
    </message>
    <message>
        <source>Entity types: true (rows) against predicted (columns), entities matched by their exact span</source>
        <translation>实体类型：真实（行）对预测（列），实体按完全相同的片段匹配</translation>
    </message>
    <message>
        <source>Each true entity is counted in the row of its type: in the column of the type of the predicted entity over exactly the same words, or under “missed” when no predicted entity has its boundaries. A predicted entity whose words no true entity spans exactly counts in the “spurious” row. The diagonal holds the correct entities (the true positives above); a boundary error is one missed and one spurious entity.</source>
        <translation>每个真实实体计入其类型所在的行：若有预测实体恰好覆盖同样的词，计入该预测实体类型所在的列；若没有边界相同的预测实体，计入“漏报”列。预测实体覆盖的词若与任何真实实体的片段都不完全相同，则计入“误报”行。对角线是正确的实体（即上表的真阳性）；一个边界错误算作一个漏报加一个误报。</translation>
    </message>
    <message>
        <source>residual</source>
        <translation>残差</translation>
    </message>
</context>
<context>
    <name>bert::ui::TechniquesPage</name>
    <message>
        <source>Fine-tune a &amp;model folder</source>
        <translation>微调模型文件夹(&amp;M)</translation>
    </message>
    <message>
        <source>Train from &amp;scratch</source>
        <translation>从头训练(&amp;S)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>Randomly initialised BERT of this size, using the folder&apos;s tokenizer</source>
        <translation>该规模的随机初始化 BERT，使用文件夹中的分词器</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Memory forecast</source>
        <translation>内存预测</translation>
    </message>
    <message>
        <source>Apply the suggested change</source>
        <translation>应用建议的更改</translation>
    </message>
    <message>
        <source>uncased</source>
        <translation>不区分大小写</translation>
    </message>
    <message>
        <source>cased</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Choose a readable model to see the memory forecast.</source>
        <translation>选择一个可读取的模型以查看内存预测。</translation>
    </message>
    <message>
        <source>memory cap</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <source>device memory</source>
        <translation>设备内存</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>gradients (alive at the peak)</source>
        <translation>梯度（峰值时存在的部分）</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Forecast peak %1 of %2 %3 (%4%): weights %5, gradients %6 (%7 of them alive at the peak), optimizer state %8, activations %9 for %10 examples of up to %11 tokens.</source>
        <translation>预测峰值 %1，%3 为 %2（%4%）：权重 %5，梯度 %6（峰值时存在 %7），优化器状态 %8，激活 %9（%10 个样本，最长 %11 个词元）。</translation>
    </message>
    <message>
        <source>This will not fit, even with every memory technique on.</source>
        <translation>即使开启所有省内存技术也放不下。</translation>
    </message>
    <message>
        <source>Largest batch that fits</source>
        <translation>可容纳的最大批次</translation>
    </message>
    <message>
        <source>Find the largest micro-batch the device or the memory cap allows (the forecast proposes, a trial step on the longest micro-batch confirms) and set the accumulation so the effective batch stays the same.</source>
        <translation>寻找设备或内存上限允许的最大微批次（先由预测给出，再用最长微批次试运行一步确认），并调整累积步数使有效批大小保持不变。</translation>
    </message>
    <message>
        <source>Finding the largest batch…</source>
        <translation>正在寻找最大批次…</translation>
    </message>
    <message>
        <source>Learning rate over the run</source>
        <translation>整个运行中的学习率</translation>
    </message>
    <message>
        <source>&amp;Undo the change</source>
        <translation>撤销更改(&amp;U)</translation>
    </message>
    <message>
        <source>Restore the settings from before the suggested change</source>
        <translation>恢复应用建议更改之前的设置</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>training step</source>
        <translation>训练一步</translation>
    </message>
    <message>
        <source>evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Evaluation, in batches of %1 without gradients: peak %2 (%3%).</source>
        <translation>评估（每批 %1 个，无梯度）：峰值 %2（%3%）。</translation>
    </message>
    <message>
        <source>This will not fit.</source>
        <translation>内存不够。</translation>
    </message>
    <message>
        <source>Evaluation will not fit.</source>
        <translation>评估时内存不够。</translation>
    </message>
    <message>
        <source>%1 To fit: %2.</source>
        <translation>%1若要放得下：%2。</translation>
    </message>
    <message>
        <source> and </source>
        <translation>，以及</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>%1: forecast %2</source>
        <translation>%1：预测 %2</translation>
    </message>
    <message>
        <source>about %1x slower</source>
        <translation>耗时约为 %1 倍</translation>
    </message>
    <message>
        <source>about %1x faster</source>
        <translation>速度约为 %1 倍</translation>
    </message>
    <message>
        <source>about as fast</source>
        <translation>速度基本不变</translation>
    </message>
    <message>
        <source>, %1 in all</source>
        <translation>，总计%1</translation>
    </message>
    <message>
        <source>%8: %1 layers, hidden size %2, %3 heads; %4 M parameters, %5 of weights (fp32); vocabulary %6 (%7)</source>
        <translation>%8：%1 层，隐藏维度 %2，%3 个注意力头；%4 M 个参数，权重 %5（fp32）；词表 %6（%7）</translation>
    </message>
    <message>
        <source>allocator overhead</source>
        <translation>分配器开销</translation>
    </message>
    <message>
        <source>CUDA context and NCCL</source>
        <translation>CUDA 上下文与 NCCL</translation>
    </message>
    <message>
        <source>That is the peak of allocated tensors, what a trial step measures. On CUDA the caching allocator reserves %1 (what a memory cap limits: cuBLAS workspaces, rounding, cached blocks), and the process takes %2 of the device with the CUDA context%3; %4% of the %5 is compared.</source>
        <translation>这是已分配张量的峰值，即试运行步骤所测量的值。在 CUDA 上，缓存分配器预留 %1（内存上限所限制的量：cuBLAS 工作区、取整、缓存块），进程连同 CUDA 上下文%3共占用设备 %2；比较的是%5的 %4%。</translation>
    </message>
    <message>
        <source> and NCCL&apos;s buffers</source>
        <translation>及 NCCL 缓冲区</translation>
    </message>
    <message>
        <source>A Hugging Face model folder of a supported family (%1): config.json, model.safetensors (or its shards) and a tokenizer (tokenizer.json, vocab.txt or spm.model)</source>
        <translation>受支持模型系列（%1）的 Hugging Face 模型文件夹：config.json、model.safetensors（或其分片）以及分词器（tokenizer.json、vocab.txt 或 spm.model）</translation>
    </message>
</context>
<context>
    <name>bert::ui::TrainingPage</name>
    <message>
        <source>&amp;Start training</source>
        <translation>开始训练(&amp;S)</translation>
    </message>
    <message>
        <source>Train with the dataset, model and techniques chosen (Ctrl+Return)</source>
        <translation>使用所选数据集、模型和技术进行训练 (Ctrl+Return)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Stop after the current micro-batch; a checkpoint is saved so the run can resume</source>
        <translation>在当前微批次后停止；会保存检查点以便继续运行</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>继续(&amp;R)</translation>
    </message>
    <message>
        <source>Continue the last cancelled or interrupted run from its checkpoint</source>
        <translation>从检查点继续上一个被取消或中断的运行</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>run %1 created</source>
        <translation>已创建运行 %1</translation>
    </message>
    <message>
        <source>%p% — starting</source>
        <translation>%p% — 正在开始</translation>
    </message>
    <message>
        <source>, trial step %1</source>
        <translation>，试运行步 %1</translation>
    </message>
    <message>
        <source>evaluation at step %1: loss %2, accuracy %3, macro-F1 %4</source>
        <translation>第 %1 步评估：损失 %2，准确率 %3，宏 F1 %4</translation>
    </message>
    <message>
        <source>Run %1 cancelled after %2 steps; it can resume from its checkpoint.</source>
        <translation>运行 %1 在 %2 步后取消；可从检查点继续。</translation>
    </message>
    <message>
        <source>Run %1 failed: %2</source>
        <translation>运行 %1 失败：%2</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>未开始</translation>
    </message>
    <message>
        <source>Training could not start: %1</source>
        <translation>无法开始训练：%1</translation>
    </message>
    <message>
        <source>Open a dataset to see what a run will train on.</source>
        <translation>打开数据集后可查看运行将用什么数据训练。</translation>
    </message>
    <message>
        <source>resuming run %1: loading the checkpoint…</source>
        <translation>正在继续运行 %1：加载检查点…</translation>
    </message>
    <message>
        <source>preparing: reading and tokenising the data…</source>
        <translation>准备中：读取数据并分词…</translation>
    </message>
    <message>
        <source>run %1 resumed</source>
        <translation>运行 %1 已继续</translation>
    </message>
    <message>
        <source>preparing run %1: memory forecast and a trial step…</source>
        <translation>正在准备运行 %1：内存预测并试运行一步…</translation>
    </message>
    <message>
        <source>the earlier steps could not be read: %1</source>
        <translation>无法读取之前的步骤：%1</translation>
    </message>
    <message>
        <source>run %1 resumed at step %2</source>
        <translation>运行 %1 从第 %2 步继续</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled before training started; no run was created.</source>
        <translation>在训练开始前已取消；未创建运行。</translation>
    </message>
    <message>
        <source>Enlarge &amp;log</source>
        <translation>放大日志(&amp;L)</translation>
    </message>
    <message>
        <source>Give the whole page to the event log (the charts come back when it is pressed again); the bar above the log also drags.</source>
        <translation>让事件日志占据整页（再按一次恢复图表）；也可拖动日志上方的分隔条。</translation>
    </message>
    <message>
        <source>Show the &amp;charts</source>
        <translation>显示图表(&amp;C)</translation>
    </message>
    <message>
        <source>%1 processes × %2 threads</source>
        <translation>%1 个进程 × %2 个线程</translation>
    </message>
    <message>
        <source>%1 processes</source>
        <translation>%1 个进程</translation>
    </message>
    <message>
        <source>Training on %1 with %2: %3 examples, %4 for validation, %5 steps. Forecast peak %6%7.</source>
        <translation>在 %1 上以 %2 训练：%3 个样本，%4 个用于验证，共 %5 步。预测峰值 %6%7。</translation>
    </message>
    <message>
        <source>ETA —</source>
        <translation>剩余 —</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>剩余 %1</translation>
    </message>
    <message>
        <source>%p% — step %1/%2 — evaluating: batch %3 of %4 — %5</source>
        <translation>%p% — 第 %1/%2 步 — 评估中：第 %3/%4 批 — %5</translation>
    </message>
    <message>
        <source>%p% — step %1/%2 — loss %3 — %4</source>
        <translation>%p% — 第 %1/%2 步 — 损失 %3 — %4</translation>
    </message>
    <message>
        <source>The run gets %1 of the %2 cores it asked for: other programs are using the processor, so it runs slower. Close them, or lower Threads.</source>
        <translation>运行只得到所请求的 %2 个核心中的 %1 个：其他程序正在占用处理器，所以运行变慢。请关闭它们，或调低线程数。</translation>
    </message>
    <message>
        <source>1 thread</source>
        <translation>1 个线程</translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation>%1 个线程</translation>
    </message>
    <message>
        <source>evaluation at step %1: loss %2, %3 %4</source>
        <translation>第 %1 步评估：损失 %2，%3 %4</translation>
    </message>
    <message>
        <source>Run %1 completed: %2 %3, peak memory %4, %5.</source>
        <translation>运行 %1 已完成：%2 %3，内存峰值 %4，%5。</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>, ECE %1</source>
        <translation>，期望校准误差 %1</translation>
    </message>
</context>
<context>
    <name>bert::ui::TrainingWorker</name>
    <message>
        <source>Cancelled before training started; no run was created.</source>
        <translation>训练开始前已取消；未创建运行。</translation>
    </message>
    <message>
        <source>Cancelled before the run resumed.</source>
        <translation>运行恢复前已取消。</translation>
    </message>
    <message>
        <source>the command line exited with code %1</source>
        <translation>命令行程序以退出码 %1 结束</translation>
    </message>
</context>
<context>
    <name>bert::ui::TryItPage</name>
    <message>
        <source>The run whose best model classifies the text</source>
        <translation>用该运行的最佳模型对文本分类</translation>
    </message>
    <message>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>folder %1</source>
        <translation>文件夹 %1</translation>
    </message>
    <message>
        <source>Type or paste a text to classify…</source>
        <translation>输入或粘贴要分类的文本…</translation>
    </message>
    <message>
        <source>C&amp;lassify</source>
        <translation>分类(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>run %1: %2 (accuracy %3)</source>
        <translation>运行 %1：%2（准确率 %3）</translation>
    </message>
    <message>
        <source>No trained model yet: train a run first, or choose a model folder.</source>
        <translation>还没有训练好的模型：请先训练一个运行，或选择模型文件夹。</translation>
    </message>
    <message>
        <source>run %1: %2 (%3)</source>
        <translation>运行 %1：%2（%3）</translation>
    </message>
    <message>
        <source>What the model predicts for the text, as its task reads it (Ctrl+Return on this tab)</source>
        <translation>模型按其任务对文本给出的预测（在此选项卡按 Ctrl+Return）</translation>
    </message>
    <message>
        <source>Classify</source>
        <translation>分类</translation>
    </message>
    <message>
        <source>Model fol&amp;der…</source>
        <translation>模型文件夹(&amp;D)…</translation>
    </message>
    <message>
        <source>Type a text to classify.</source>
        <translation>请输入要分类的文本。</translation>
    </message>
    <message>
        <source>Cut at %1 tokens: the model read the first %1 of the text&apos;s %2 tokens, and nothing after them (%3).</source>
        <translation>在 %1 个词元处截断：模型只读取了文本 %2 个词元中的前 %1 个，之后的内容均未读取（%3）。</translation>
    </message>
    <message>
        <source>no entity is found past them</source>
        <translation>其后的实体不会被识别</translation>
    </message>
    <message>
        <source>the rest did not count</source>
        <translation>其余部分不计入结果</translation>
    </message>
    <message>
        <source>%1% of the text&apos;s tokens are unknown to the model&apos;s vocabulary (%2): it cannot read them. A model for this language reads it.</source>
        <translation>文本中 %1% 的词元不在模型词表中（%2）：模型无法读取它们。请选用适合该语言的模型。</translation>
    </message>
    <message>
        <source>Second text, for a model trained on pairs (optional)</source>
        <translation>第二段文本，用于以文本对训练的模型（可选）</translation>
    </message>
    <message>
        <source>A model trained on two texts (a question and its answer, say) reads this one as the second, as `predict --pair` does; leave it empty for a model trained on one text</source>
        <translation>以两段文本训练的模型（例如问题和答案）把这里的文本作为第二段读取，与 `predict --pair` 相同；对以单段文本训练的模型请留空</translation>
    </message>
    <message>
        <source>Second te&amp;xt:</source>
        <translation>第二段文本(&amp;X)：</translation>
    </message>
    <message>
        <source>Longer than %1 tokens: the model read the first %2 and the last %3 of the text&apos;s %4 tokens (head+tail), and nothing between them.</source>
        <translation>超过 %1 个词元：模型读了文本 %4 个词元中的前 %2 个和后 %3 个（首尾），中间的没有读。</translation>
    </message>
    <message>
        <source>Longer than %1 tokens: the model read all %2 of the text&apos;s tokens in %3 windows of up to %1, overlapping by %4, and pooled their scores (%5).</source>
        <translation>超过 %1 个词元：模型把文本的全部 %2 个词元分成 %3 个最长 %1 的窗口来读，相邻窗口重叠 %4 个，并汇聚了它们的得分（%5）。</translation>
    </message>
    <message>
        <source>the largest</source>
        <translation>取最大值</translation>
    </message>
    <message>
        <source>the mean</source>
        <translation>取平均</translation>
    </message>
    <message>
        <source>Window %1 (tokens %2 to %3) gave the answer its highest score.</source>
        <translation>第 %1 个窗口（第 %2 到 %3 个词元）给这个答案的得分最高。</translation>
    </message>
    <message>
        <source>Run %1 has no model on disk to try (its checkpoints were removed, or it has none yet).</source>
        <translation>运行 %1 在磁盘上没有可试用的模型（它的检查点已被删除，或者还没有）。</translation>
    </message>
</context>
<context>
    <name>bert::ui::TryItResultView</name>
    <message>
        <source>the run&apos;s threshold</source>
        <translation>该运行的阈值</translation>
    </message>
    <message>
        <source>the threshold in the model folder&apos;s config.json</source>
        <translation>模型文件夹 config.json 中的阈值</translation>
    </message>
    <message>
        <source>the default threshold</source>
        <translation>默认阈值</translation>
    </message>
    <message>
        <source>No label reaches the threshold %1 (%2).</source>
        <translation>没有标签达到阈值 %1（%2）。</translation>
    </message>
    <message>
        <source>Labels at or above the threshold %1 (%2):</source>
        <translation>达到或超过阈值 %1 的标签（%2）：</translation>
    </message>
    <message>
        <source>Below the threshold:</source>
        <translation>低于阈值：</translation>
    </message>
    <message>
        <source>Predicted “%1”:</source>
        <translation>预测的“%1”：</translation>
    </message>
    <message>
        <source>In the target&apos;s units, as the model was trained on them.</source>
        <translation>以目标的单位表示，与模型训练时所用的单位相同。</translation>
    </message>
    <message>
        <source>In the target&apos;s units: the run&apos;s standardisation (mean %1, scale %2) undone.</source>
        <translation>以目标的单位表示：已撤销该运行的标准化（均值 %1，尺度 %2）。</translation>
    </message>
    <message>
        <source>Entity types:</source>
        <translation>实体类型：</translation>
    </message>
    <message>
        <source>No entities found in this text.</source>
        <translation>此文本中未找到实体。</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>起始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>The entity&apos;s first character in the text, counted from 0</source>
        <translation>实体在文本中的第一个字符位置，从 0 开始计数</translation>
    </message>
    <message>
        <source>The entity&apos;s last character in the text, included (as predict --file writes it)</source>
        <translation>实体在文本中的最后一个字符位置，包含该字符（与 predict --file 写出的相同）</translation>
    </message>
</context>
</TS>
