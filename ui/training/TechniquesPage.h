#pragma once

#include <memory>
#include <optional>

#include <QList>
#include <QPointF>
#include <QWidget>

#include "model/EncoderConfig.h"
#include "train/MemoryForecast.h"
#include "train/TrainingConfig.h"

QT_BEGIN_NAMESPACE
class QChartView;
class QLineSeries;
class QValueAxis;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
QT_END_NAMESPACE

namespace bert {
class Tokenizer;
}

namespace bert::ui {

class ModelPicker;
class OptionForm;

/// "Model & techniques" tab: the base model (picked from the bundled MiniLM and the local
/// Hugging Face cache by ModelPicker, any transformers folder, or a from-scratch preset) with
/// its family and size, every training option as a form row built from the option table
/// (OptionForm) with a tooltip of what it saves and costs, and a stacked bar of the memory
/// forecast against the device or the cap (the cap drawn as a line), for a training step and
/// for an evaluation, updated as options change. When either does not fit, a warning names the
/// change that would make it fit and offers to apply it; an applied change can be undone.
/// configChanged() fires once per change, setConfig() included. GUI thread only.
class TechniquesPage : public QWidget {
    Q_OBJECT

public:
    explicit TechniquesPage(QWidget* parent = nullptr);

    TrainingConfig config() const;
    /// Shows config; configChanged() fires once, and the forecast is rebuilt once.
    void setConfig(const TrainingConfig& config);
    std::filesystem::path modelFolder() const;
    /// Empty to fine-tune the model folder; else a from-scratch preset over its tokenizer.
    std::string preset() const;
    /// The tokenizer of the chosen model folder, or null when it cannot be read.
    std::shared_ptr<const Tokenizer> tokenizer() const { return tokenizer_; }
    /// The dataset's example lengths in tokens, for the forecast (empty: none open; the
    /// forecast then assumes examples of max length).
    void setExampleLengths(const std::vector<std::size_t>& tokens);
    /// The forecast of a training step shown now.
    MemoryBreakdown forecast() const { return forecast_; }
    /// The forecast peak of an evaluation (forecastEvaluationPeak) shown beside it.
    std::int64_t evaluationForecast() const { return evaluationPeak_; }
    /// Whether both the training step and the evaluation fit the device or the cap.
    bool fits() const { return fits_; }
    /// The forecast chart (a bar for the training step, one for evaluation, the cap marked).
    QChartView* forecastChart() const { return forecastChart_; }
    QString modelError() const;
    /// The labels of the chosen model folder's head (config.json); empty for a from-scratch
    /// preset or when the folder cannot be read.
    std::vector<std::string> modelLabels() const;
    QString adviceText() const;
    void setModelFolder(const QString& folder);
    /// Fine-tune folder (preset empty) or train a preset from scratch over its tokenizer.
    void setModel(const QString& folder, const QString& preset);
    /// Applies the change the warning suggests (the "Apply the suggested change" button); the
    /// "Undo the change" button then restores the settings before it, until another change.
    void applyAdvice();
    void undoAdvice();
    bool canUndoAdvice() const;
    /// While the studio searches (largestBatchRequested), the button says so and is disabled.
    void setLargestBatchSearching(bool searching);
    /// The learning-rate preview's points: (percent of the run, rate).
    QList<QPointF> learningRatePreview() const;
    /// How many times the forecast chart was rebuilt (for tests: once per change).
    int forecastUpdates() const { return forecastUpdates_; }
    OptionForm* options() const { return options_; }

Q_SIGNALS:
    void configChanged();
    void modelChanged();
    /// "Largest batch that fits" was pressed: the main window runs the search on the worker.
    void largestBatchRequested();
    /// The suggested change was applied (description: what it changed) or undone (empty).
    void adviceApplied(const QString& description);

protected:
    /// A wheel over a spin box or combo box that has not the focus scrolls the page instead of
    /// changing the field (a user scrolling past "CPU threads" set it to 3).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    static QString describeAdvice(const FitAdvice& advice);
    void loadModel();
    /// A model that fp16 makes diverge takes bf16 in place of an untouched fp32 where bf16 is
    /// native (train/DefaultPrecision.h); the next model that does not puts fp32 back.
    void followModelPrecision();
    void updateForecast();
    void updateLearningRatePreview();

    std::optional<EncoderConfig> modelConfig_;
    std::shared_ptr<const Tokenizer> tokenizer_;
    std::optional<ExampleLengths> lengths_;
    MemoryBreakdown forecast_;
    bool fits_ = true;
    std::optional<TrainingConfig> advice_;
    QString adviceDescription_;
    std::int64_t evaluationPeak_ = 0;
    std::optional<TrainingConfig> beforeAdvice_;  ///< what "Undo the change" restores
    std::optional<TrainingConfig> applied_;       ///< the advice applied; undo lasts while shown
    bool constructed_ = false;  ///< widgets fire signals while the constructor builds them
    /// The precision is bf16 because the model asked for it (followModelPrecision), not the
    /// user: the form says why, and another model may put fp32 back.
    bool precisionFromModel_ = false;

    QRadioButton* fineTune_;
    QRadioButton* fromScratch_;
    ModelPicker* picker_;
    QLineEdit* modelFolder_;
    QComboBox* presetBox_;
    QLabel* modelInfo_;
    QLabel* modelError_;

    OptionForm* options_;
    TrainingConfig
        hidden_;  ///< the options the form does not show (validation share) keep these values
    int forecastUpdates_ = 0;

    QChartView* forecastChart_;
    QLabel* forecastLabel_;
    QLabel* warningLabel_;
    QPushButton* applyAdvice_;
    QPushButton* undoAdvice_;
    QPushButton* largestBatch_;
    QChartView* lrPreview_;
    QLineSeries* lrSeries_;
    QValueAxis* lrRateAxis_;
};

}  // namespace bert::ui
