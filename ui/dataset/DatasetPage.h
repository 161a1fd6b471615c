#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include <QString>
#include <QWidget>

#include "data/Dataset.h"
#include "data/DatasetProfile.h"
#include "data/LabelCheck.h"
#include "data/LongText.h"
#include "data/TaggedReader.h"
#include "data/UnknownTokens.h"
#include "task/TaskGuess.h"
#include "task/TrainingData.h"
#include "task/multilabel/LabelSets.h"
#include "task/token/TagScheme.h"

QT_BEGIN_NAMESPACE
class QChartView;
class QCheckBox;
class QRadioButton;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QTableWidget;
class QPushButton;
class QMenu;
QT_END_NAMESPACE

namespace bert {
class Tokenizer;
}

namespace bert::ui {

class LabelColumnsChoice;

/// Dataset tab: open a CSV/TSV/JSONL (dialog, drag and drop, recent files) or a tagged file
/// (CoNLL, JSONL tokens/tags, span JSON), preview it, choose the task (guessed from the data,
/// changeable; for multi-label, labels separated in one column or one 0/1 column per label,
/// guessed too), the text, second-text and label columns, see the
/// task's summary (label counts and co-occurrence, the target's histogram, entities per type) and
/// the token-length histogram with the padding share of each batching scheme, and the share of
/// tokens the chosen model cannot read ([UNK]), set the validation split. Import errors are shown
/// in the page with the file and line; a table with no column that looks like labels asks for one
/// instead of guessing the text column. GUI thread only.
class DatasetPage : public QWidget {
    Q_OBJECT

public:
    explicit DatasetPage(QWidget* parent = nullptr);

    /// Opens a file on the GUI thread: returns false (and shows why) when it cannot be read.
    /// (A job's dataset, "Train again": what follows needs its columns at once.)
    bool openFile(const QString& file);
    /// Opens a file off the GUI thread, as the Open dataset button and menu, drops, recent
    /// files and the file reopened at start do (DatasetLoading.cpp): the page says what it is
    /// reading, with a busy bar and Cancel, and the window stays responsive. The page changes
    /// once the file's preview is read; its task is guessed and its examples read in the
    /// background too. loadFinished() follows (not after Cancel, which brings back the file
    /// open before).
    void openInBackground(const QString& file);
    /// Whether a file is being read in the background.
    bool isLoading() const { return loading_; }
    /// Asks for a dataset in a file dialog (the Open dataset button and File → Open dataset),
    /// starting in the open file's folder, and opens it.
    void chooseFile();
    /// The file dialog's filter: every format the page reads (tables and tagged files).
    static QString fileFilter();
    /// Tokenizer for the length histogram (the chosen model's).
    void setTokenizer(std::shared_ptr<const Tokenizer> tokenizer);
    /// Max length and batch size for the padding estimates.
    void setBatching(std::size_t maxLength, std::size_t batchSize,
                     const LongTextSpec& longText = {});
    /// Under this share of the examples (a fraction) a class is rare: the summary names it.
    void setRareShare(double share);
    /// The max length and batch size the padding estimates are for now.
    std::pair<std::size_t, std::size_t> batching() const { return {maxLength_, batchSize_}; }

    /// Whether a run can be started on what is open: a table read with the chosen columns and
    /// task, or a tagged file for token classification.
    bool hasData() const;
    /// The task chosen (guessed when a file is opened).
    TaskKind task() const;
    /// What the page says about its guess of the task.
    QString taskGuessText() const;
    /// The task's summary line (examples, labels, targets or entities).
    QString summaryText() const;
    /// The examples read with the chosen columns, or null when none are (no file, an error).
    const ExampleSet* examples() const { return examples_ ? &*examples_ : nullptr; }
    DataSpec dataSpec() const;
    /// Opens spec's training file and chooses its columns (a job file, "Train again"). Returns
    /// false (and shows why) when the file cannot be read or a column is missing.
    bool setDataSpec(const DataSpec& spec, double validationFraction);
    double validationFraction() const;
    QString currentFile() const { return file_; }
    QString errorText() const;
    /// Longest example in tokens (0 before a dataset is open).
    std::size_t longestExample() const;
    /// Every example's length in tokens (empty before a dataset is open).
    const std::vector<std::size_t>& exampleLengths() const { return lengths_; }
    PaddingShares paddingShares() const { return shares_; }
    /// The share of the profiled examples' tokens the chosen model's vocabulary does not know
    /// ([UNK]); zero tokens before a dataset and a model are chosen.
    const UnknownTokenShare& unknownTokens() const { return unknown_; }
    /// What the page says about unknown tokens (a warning above kUnknownTokenWarningShare).
    QString unknownTokenText() const;
    QStringList recentFiles() const;

Q_SIGNALS:
    void datasetChanged();
    /// A background open ended: ok when the file was read (an error is shown otherwise).
    void loadFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    /// A file read for opening (off the GUI thread in the background): its kind, and its
    /// preview or its tagged sentences.
    struct Opened {
        QString file;
        TaskGuess fileGuess;
        std::optional<TaggedFile> tagged;
        std::optional<TagSummary> tagSummary;
        std::optional<Table> preview;
    };
    /// Each example's length in tokens and the unknown tokens among them.
    struct Profile {
        std::vector<std::size_t> lengths;
        UnknownTokenShare unknown;
    };
    /// The examples and multi-label label sets of a spec as its task reads them, with their
    /// profile under a tokenizer (when one is given).
    struct ReadExamples {
        ExampleSet examples;
        std::optional<std::vector<LabelSet>> labelSets;
        std::optional<Profile> profile;
        std::shared_ptr<const Tokenizer> tokenizer;  ///< the profile's
    };
    /// Reads what opening file needs (any thread; throws InputError naming the file).
    static Opened readOpened(const QString& file);
    /// Shows a file read by readOpened. In the background, the task guess and the examples are
    /// read off the GUI thread next (generation: the background open this belongs to).
    bool showOpened(Opened opened, int generation = 0);
    void showLoading(const QString& what);
    /// The background open ended (ok: the file was read).
    void finishLoading(bool ok);
    /// Cancel: the file being read is left, and the one open before comes back.
    void cancelLoading();
    /// The examples of the chosen columns, read off the GUI thread (the end of a background
    /// open).
    void readExamplesInBackground(int generation);
    void columnsChanged();
    /// What columnsChanged does up to reading the examples; false when there is nothing to read
    /// (an error or a tagged file is shown).
    bool prepareColumns();
    /// The examples of spec as the task reads them (any thread; throws InputError).
    static ReadExamples readExamplesOf(const DataSpec& spec, bool fromColumns, char separator);
    /// The profile of examples (or of tagged sentences) under tokenizer, for at most
    /// kProfileRows of them (any thread).
    static Profile profileOf(const ExampleSet* examples, const TaggedFile* tagged,
                             const Tokenizer& tokenizer);
    /// Shows a tagged file read by readOpened (token classification).
    void showTagged(Opened& opened);
    /// Fills the preview with the table's first rows and the column choices with its columns.
    void showTable(const Table& table);
    /// Shows guess in the task choice (and the multi-label separator or 0/1 columns it implies).
    void setTaskGuess(const TaskGuess& guess);
    /// Says the guess while the task is the guessed one, else that it was chosen by hand.
    void showTaskGuess();
    /// The rows of the form for the task's own settings (standardised regression targets, the
    /// multi-label decision threshold), added to form_ (DatasetTasks.cpp).
    void addTaskSettings();
    /// Shows the task's own settings of spec, and only the rows of the task chosen.
    void showTaskSettings(const TaskSpec& task);
    /// The task's chart, table and summary line for the examples read (DatasetTasks.cpp).
    void refreshTaskSummary();
    /// Reads the examples with the chosen columns as the task reads them (examples_, and
    /// labelSets_ for multi-label); throws InputError naming the file, line and column at fault.
    void readExamples();
    /// The user changed where the multi-label labels are: to 0/1 columns with none checked, the
    /// columns that look like them are checked.
    void labelChoiceChanged();
    /// Multi-label from one 0/1 column per label (else from one label column).
    bool labelsFromColumns() const;
    /// The text, second-text and label columns chosen in the combo boxes.
    ColumnSpec chosenColumns() const;
    char labelSeparator() const;
    void showError(const QString& message);
    /// A file that could not be opened: why, and that the file open before stays open.
    void showOpenError(const std::exception_ptr& error);
    void showOpenError(const QString& why);
    /// The token lengths, their histogram, padding shares and unknown tokens
    /// (DatasetLengths.cpp), then the task's summary.
    void refreshProfile();
    void rememberRecent(const QString& file);
    void rebuildRecentMenu();
    /// The label column guessed for a table: one named like a label, else the last column but
    /// the text one whose previewed values repeat (classes do, ids and texts do not) or are all
    /// numbers but for a typo (mostlyNumbers: a regression target); -1: none.
    int guessLabelColumn(const QStringList& headers, int textColumn) const;

    QString file_;
    bool loading_ = false;
    bool applyingLoad_ = false;        ///< a background open fills the page: no reading meanwhile
    std::optional<Profile> profiled_;  ///< read in the background, for the next refreshProfile
    int loadGeneration_ = 0;           ///< bumped by each background open and by Cancel
    QString fileBeforeLoading_;
    TaskKind guessedTask_ = allTaskKinds().front();
    QString guessReason_;  ///< why guessedTask_, translated
    std::optional<Table> preview_;
    std::optional<ExampleSet> examples_;
    std::optional<std::vector<LabelSet>> labelSets_;  ///< multi-label: examples_'s labels
    std::optional<TaggedFile> tagged_;  ///< a tagged file's sentences, when one is open
    std::optional<TagSummary> tagSummary_;
    std::shared_ptr<const Tokenizer> tokenizer_;
    std::vector<std::size_t> lengths_;
    PaddingShares shares_;
    UnknownTokenShare unknown_;
    std::size_t maxLength_ = 128;
    std::size_t batchSize_ = 16;
    double rareShare_ = kRareLabelShare;
    LongTextSpec longText_;  ///< what the lengths' sentence says of texts over maxLength_

    QPushButton* openButton_;
    QWidget* loadRow_;  ///< what is being read, a busy bar and Cancel
    QLabel* loadLabel_;
    QPushButton* cancelLoad_;
    QMenu* recentMenu_;
    QLabel* fileLabel_;
    QLabel* errorLabel_;
    QTableWidget* previewTable_;
    QFormLayout* form_;
    QComboBox* task_;
    LabelColumnsChoice* labelChoice_;
    QLabel* taskGuessLabel_;
    QCheckBox* standardizeTargets_;
    QWidget* thresholdRow_;
    QRadioButton* thresholdTuned_;
    QRadioButton* thresholdFixed_;
    QDoubleSpinBox* threshold_;
    QTableWidget* taskTable_;
    QComboBox* textColumn_;
    QComboBox* pairColumn_;
    QComboBox* labelColumn_;
    QDoubleSpinBox* validationFraction_;
    QLabel* summaryLabel_;
    QLabel* unknownLabel_;
    QChartView* labelChart_;
    QChartView* lengthChart_;
    QLabel* paddingLabel_;
};

}  // namespace bert::ui
