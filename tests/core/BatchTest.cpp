#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "TinyModel.h"
#include "data/Batch.h"

namespace bert {
namespace {

TEST(Batch, DynamicPaddingPadsToTheLongestAndToAMultiple) {
    const auto bundle = test::makeTinyModel(1);
    const auto shortText = bundle.tokenizer->encode("the cat");
    const auto longText = bundle.tokenizer->encode("the cat sat on the mat");
    const auto inputs = collate({&shortText, &longText}, bundle.tokenizer->padId(), {}, c10::kCPU);
    EXPECT_EQ(inputs.inputIds.sizes(), (at::IntArrayRef{2, 8}));
    EXPECT_EQ(inputs.attentionMask[0].sum().item<int64_t>(), 4);
    EXPECT_EQ(inputs.inputIds[0][5].item<int64_t>(), bundle.tokenizer->padId());
    PaddingOptions eight;
    eight.multipleOf = 8;
    EXPECT_EQ(collate({&shortText}, 0, eight, c10::kCPU).inputIds.size(1), 8);
    PaddingOptions fixed;
    fixed.fixedLength = 32;
    EXPECT_EQ(collate({&shortText, &longText}, 0, fixed, c10::kCPU).inputIds.size(1), 32);
}

TEST(Batch, DynamicPaddingGivesTheSameLogitsAsFixedPadding) {
    // Guards the attention mask: padding must not change what real tokens compute.
    auto bundle = test::makeTinyModel(3);
    const auto a = bundle.tokenizer->encode("i loved it !");
    const auto b = bundle.tokenizer->encode("the movie was very very bad , not good");
    PaddingOptions fixed;
    fixed.fixedLength = 64;
    bundle.model->eval();
    const torch::NoGradGuard noGrad;
    const auto dynamic = bundle.model->forward(collate({&a, &b}, 0, {}, c10::kCPU));
    const auto padded = bundle.model->forward(collate({&a, &b}, 0, fixed, c10::kCPU));
    const auto alone = bundle.model->forward(collate({&a}, 0, {}, c10::kCPU));
    EXPECT_LT((dynamic - padded).abs().max().item<float>(), 1e-5F);
    EXPECT_LT((dynamic[0] - alone[0]).abs().max().item<float>(), 1e-5F);
}

}  // namespace
}  // namespace bert
