// Opening a dataset off the GUI thread (the Open dataset button and menu, drops, recent files,
// the file reopened at start): a 50 MB CSV froze the window for 8 s, and every later start
// showed a black window while it was reopened. The rest of the page is in DatasetPage.cpp.
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

#include "common/AsyncTask.h"
#include "common/Guard.h"
#include "dataset/DatasetPage.h"
#include "task/TaskView.h"
#include "task/multilabel/LabelSets.h"
#include "task/regression/RegressionTargets.h"
#include "tokenizer/Tokenizer.h"

namespace bert::ui {

namespace {
constexpr int kPreviewRows = 200;  // rows shown in the preview table (as DatasetPage.cpp)
}  // namespace

DatasetPage::Opened DatasetPage::readOpened(const QString& file) {
    Opened opened;
    opened.file = file;
    DataSpec probe;
    probe.trainFile = file.toStdString();
    opened.fileGuess = guessTask(probe);
    if (taskView(opened.fileGuess.kind).readsTaggedWords()) {
        auto tagged = readTaggedFile(file.toStdString());
        opened.tagSummary = checkTags(tagged.sentences, tagged.source);
        opened.tagged = std::move(tagged);
    } else {
        opened.preview = readTable(file.toStdString(), std::nullopt, kPreviewRows);
    }
    return opened;
}

bool DatasetPage::showOpened(Opened opened, int generation) {
    const bool background = generation != 0;
    if (opened.tagged) {
        showTagged(opened);
        applyingLoad_ = background;
        setTaskGuess(opened.fileGuess);
        applyingLoad_ = false;
        columnsChanged();  // a tagged file's sentences are read: nothing more to read
        const bool ok = errorText().isEmpty();
        if (background) {
            finishLoading(ok);
        }
        return ok;
    }
    const auto file = opened.file;
    preview_ = std::move(opened.preview);
    file_ = file;
    tagged_.reset();
    tagSummary_.reset();
    showError({});
    fileLabel_->setText(QDir::toNativeSeparators(file));
    rememberRecent(file);
    applyingLoad_ = background;
    showTable(*preview_);
    applyingLoad_ = false;
    DataSpec spec;
    spec.trainFile = file_.toStdString();
    spec.columns = chosenColumns();
    if (!background) {
        setTaskGuess(guessTask(spec));
        columnsChanged();
        return errorText().isEmpty();
    }
    // The task guess reads up to 5,000 rows, and the examples all of them: off the GUI thread.
    // Meanwhile the page has no examples (none of the file open before).
    examples_.reset();
    labelSets_.reset();
    showLoading(tr("Guessing the task of %1…").arg(QFileInfo(file).fileName()));
    runAsync<TaskGuess>(
        this, [spec] { return guessTask(spec); },
        [this, generation](TaskGuess guess) {
            if (generation != loadGeneration_) {
                return;
            }
            applyingLoad_ = true;
            setTaskGuess(guess);
            applyingLoad_ = false;
            readExamplesInBackground(generation);
        },
        [this, generation](const QString& why) {
            if (generation == loadGeneration_) {
                showError(why);
                finishLoading(false);
            }
        });
    return true;
}

void DatasetPage::openInBackground(const QString& file) {
    const int generation = ++loadGeneration_;
    if (!loading_) {
        fileBeforeLoading_ = file_;
    }
    loading_ = true;
    showLoading(tr("Reading %1…").arg(QDir::toNativeSeparators(file)));
    runAsync<Opened>(
        this, [file] { return readOpened(file); },
        [this, generation](Opened opened) {
            if (generation == loadGeneration_) {
                showOpened(std::move(opened), generation);
            }
        },
        [this, generation](const QString& why) {
            if (generation == loadGeneration_) {
                showOpenError(why);
                finishLoading(false);
            }
        });
}

void DatasetPage::readExamplesInBackground(int generation) {
    if (!prepareColumns()) {
        finishLoading(errorText().isEmpty());  // nothing to read: the page says why
        return;
    }
    showLoading(tr("Reading the examples of %1…").arg(QFileInfo(file_).fileName()));
    runAsync<ReadExamples>(
        this,
        [spec = dataSpec(), fromColumns = labelsFromColumns(), separator = labelSeparator(),
         tokenizer = tokenizer_] {
            auto read = readExamplesOf(spec, fromColumns, separator);
            if (tokenizer) {
                read.profile = profileOf(&read.examples, nullptr, *tokenizer);
                read.tokenizer = tokenizer;
            }
            return read;
        },
        [this, generation](ReadExamples read) {
            if (generation != loadGeneration_) {
                return;
            }
            examples_ = std::move(read.examples);
            labelSets_ = std::move(read.labelSets);
            if (read.profile && read.tokenizer == tokenizer_) {
                profiled_ = std::move(read.profile);  // not the model chosen meanwhile's
            }
            showError({});
            refreshProfile();
            Q_EMIT datasetChanged();
            finishLoading(true);
        },
        [this, generation](const QString& why) {
            if (generation != loadGeneration_) {
                return;
            }
            examples_.reset();
            labelSets_.reset();
            showError(why);
            refreshProfile();
            Q_EMIT datasetChanged();
            finishLoading(false);
        });
}

void DatasetPage::showLoading(const QString& what) {
    loadLabel_->setText(what);
    cancelLoad_->setEnabled(true);
    loadRow_->show();
}

void DatasetPage::finishLoading(bool ok) {
    loading_ = false;
    loadRow_->hide();
    Q_EMIT loadFinished(ok);
}

void DatasetPage::cancelLoading() {
    if (!loading_) {
        return;
    }
    ++loadGeneration_;  // what the background still reads is dropped when it arrives
    loading_ = false;
    loadRow_->hide();
    if (file_ == fileBeforeLoading_) {
        return;  // the page still shows the file open before
    }
    if (!fileBeforeLoading_.isEmpty()) {
        openInBackground(fileBeforeLoading_);  // the file open before comes back
        return;
    }
    examples_.reset();
    labelSets_.reset();
    showError(tr("Reading %1 was cancelled.").arg(QFileInfo(file_).fileName()));
    refreshProfile();
    Q_EMIT datasetChanged();
}

void DatasetPage::showOpenError(const QString& why) {
    auto message = why;
    if (!file_.isEmpty()) {
        message += QLatin1Char(' ') + tr("%1 stays open.").arg(QDir::toNativeSeparators(file_));
    }
    showError(message);
}

DatasetPage::ReadExamples DatasetPage::readExamplesOf(const DataSpec& spec, bool fromColumns,
                                                      char separator) {
    auto [examples, labelSets] =
        taskView(spec.task.kind).readExamples(spec, fromColumns, separator);
    ReadExamples read;
    read.examples = std::move(examples);
    read.labelSets = std::move(labelSets);
    return read;
}

}  // namespace bert::ui
