#pragma once

#include <QWidget>

#include <memory>
#include <optional>

#include "memory/MemoryForecast.h"
#include "model/BertConfig.h"
#include "train/TrainingConfig.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
QT_END_NAMESPACE

namespace bert {
class WordPieceTokenizer;
}

namespace bert::ui {

/// "Model & techniques" tab: the base model (a transformers folder, the bundled MiniLM by
/// default, or a from-scratch preset) with its size, every switch of TrainingConfig grouped with
/// a one-line tooltip of what it saves and costs, the device and memory cap, and a stacked bar
/// of the memory forecast against the device or the cap, updated as switches change. When the
/// forecast does not fit, a warning names the change that would make it fit and offers to
/// apply it. GUI thread only.
class TechniquesPage : public QWidget {
    Q_OBJECT

public:
    explicit TechniquesPage(QWidget* parent = nullptr);

    TrainingConfig config() const;
    void setConfig(const TrainingConfig& config);
    std::filesystem::path modelFolder() const;
    /// Empty to fine-tune the model folder; else a from-scratch preset over its tokenizer.
    std::string preset() const;
    /// The tokenizer of the chosen model folder, or null when it cannot be read.
    std::shared_ptr<const WordPieceTokenizer> tokenizer() const { return tokenizer_; }
    /// Longest example of the dataset, for the forecast.
    void setLongestExample(std::size_t tokens);
    /// The forecast shown now.
    MemoryBreakdown forecast() const { return forecast_; }
    bool fits() const { return fits_; }
    QString modelError() const;
    QString adviceText() const;
    void setModelFolder(const QString& folder);

Q_SIGNALS:
    void configChanged();
    void modelChanged();

private:
    void loadModel();
    void updateForecast();
    void applyAdvice();

    std::optional<BertConfig> modelConfig_;
    std::shared_ptr<const WordPieceTokenizer> tokenizer_;
    std::size_t longest_ = 0;
    MemoryBreakdown forecast_;
    bool fits_ = true;
    std::optional<TrainingConfig> advice_;
    bool constructed_ = false;  ///< widgets fire signals while the constructor builds them

    QRadioButton* fineTune_;
    QRadioButton* fromScratch_;
    QLineEdit* modelFolder_;
    QComboBox* presetBox_;
    QLabel* modelInfo_;
    QLabel* modelError_;

    QSpinBox* batchSize_;
    QSpinBox* accumulation_;
    QSpinBox* evalBatch_;
    QSpinBox* maxLength_;
    QComboBox* padding_;
    QSpinBox* padMultiple_;
    QCheckBox* groupByLength_;
    QCheckBox* freezeEmbeddings_;
    QSpinBox* freezeLayers_;
    QComboBox* precision_;
    QCheckBox* checkpointing_;
    QComboBox* cacheRelease_;
    QSpinBox* cacheReleaseSteps_;
    QCheckBox* capEnabled_;
    QSpinBox* capMiB_;
    QCheckBox* oomRecovery_;
    QSpinBox* epochs_;
    QSpinBox* maxSteps_;
    QDoubleSpinBox* learningRate_;
    QDoubleSpinBox* weightDecay_;
    QDoubleSpinBox* warmup_;
    QDoubleSpinBox* gradNorm_;
    QSpinBox* seed_;
    QSpinBox* evalEvery_;
    QComboBox* device_;

    QChartView* forecastChart_;
    QLabel* forecastLabel_;
    QLabel* warningLabel_;
    QPushButton* applyAdvice_;
};

}  // namespace bert::ui
