// bert-studio: the desktop application.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string_view>

#include <QApplication>
#include <QCommandLineParser>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>

#include "Error.h"
#include "common/Guard.h"
#include "common/Language.h"
#include "main/MainWindow.h"
#include "runs/RunDialog.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"

namespace {

// The bundled sample dataset: installed beside the program, or in the source tree of a build.
QString sampleDataset() {
    const QStringList candidates = {
        QCoreApplication::applicationDirPath() +
            QStringLiteral("/../share/bert-studio/sample/support-tickets.csv"),
        QStringLiteral(BERT_STUDIO_SOURCE_SAMPLE)};
    for (const auto& candidate : candidates) {
        if (QFileInfo::exists(candidate)) {
            return QFileInfo(candidate).canonicalFilePath();
        }
    }
    return {};
}

/// Whether the command line only asks for help or the version: answered without a display (a
/// QApplication needs one, and aborted on a machine without).
bool onlyAsksForHelp(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
            arg == "--version") {
            return true;
        }
    }
    return false;
}

int runStudio(int argc, char** argv) {
    std::unique_ptr<QCoreApplication> application;
    if (onlyAsksForHelp(argc, argv)) {
        application = std::make_unique<QCoreApplication>(argc, argv);
    } else {
        application = std::make_unique<QApplication>(argc, argv);
    }
    auto& app = *application;
    QCoreApplication::setOrganizationName(QStringLiteral("BERT Studio"));
    QCoreApplication::setApplicationName(QStringLiteral("bert-studio"));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("BERT Studio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BERT_STUDIO_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Fine-tune BERT classifiers without running out of memory"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption datasetOption(
        QStringLiteral("dataset"), QStringLiteral("Open this dataset"), QStringLiteral("file"));
    // --db as in bert-studio-cli; --database, its first name, still works.
    const QCommandLineOption databaseOption({QStringLiteral("db"), QStringLiteral("database")},
                                            QStringLiteral("Run database"), QStringLiteral("file"));
    const QCommandLineOption languageOption(QStringLiteral("language"),
                                            QStringLiteral("en or zh_CN"), QStringLiteral("code"));
    const QCommandLineOption darkOption(QStringLiteral("dark"), QStringLiteral("Dark palette"));
    const QCommandLineOption tabOption(QStringLiteral("tab"), QStringLiteral("Show this tab (0-4)"),
                                       QStringLiteral("index"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"), QStringLiteral("Save a screenshot of the window and quit"),
        QStringLiteral("png"));
    const QCommandLineOption openRunOption(QStringLiteral("open-run"),
                                           QStringLiteral("Show a stored run's charts"),
                                           QStringLiteral("id"));
    const QCommandLineOption sizeOption(
        QStringLiteral("size"), QStringLiteral("Window size for screenshots, e.g. 1280x1100"),
        QStringLiteral("WxH"));
    const QCommandLineOption qualityOption(
        QStringLiteral("model-quality"),
        QStringLiteral("With --open-run: show the run's confusion matrix and per-class report"));
    const QCommandLineOption compareOption(QStringLiteral("compare"),
                                           QStringLiteral("Compare stored runs, e.g. 1,2"),
                                           QStringLiteral("ids"));
    for (const auto* option :
         {&datasetOption, &databaseOption, &languageOption, &darkOption, &tabOption,
          &screenshotOption, &sizeOption, &openRunOption, &qualityOption, &compareOption}) {
        parser.addOption(*option);
    }
    parser.process(app);

    QSettings settings;
    QString language = parser.value(languageOption);
    if (language.isEmpty()) {
        language =
            settings.value(QStringLiteral("view/language"), QStringLiteral("system")).toString();
    }
    // The studio's translation, Qt's own (dialogs, standard buttons) and the locale of dates.
    bert::ui::installLanguage(language);

    std::filesystem::path database = bert::RunStore::defaultLocation();
    if (parser.isSet(databaseOption)) {
        database = parser.value(databaseOption).toStdString();
    } else if (settings.contains(QStringLiteral("runs/database"))) {
        database = settings.value(QStringLiteral("runs/database")).toString().toStdString();
    }
    bert::ui::MainWindow window(database);
    if (parser.isSet(darkOption)) {
        window.setDarkPalette(true, /*remember=*/false);
    }
    // The window opens at the size it had (MainWindow restores it); --size overrides it.
    if (const auto size = parser.value(sizeOption).split(QLatin1Char('x')); size.size() == 2) {
        window.resize(std::max(640, size[0].toInt()), std::max(480, size[1].toInt()));
    }
    window.show();

    QString dataset = parser.value(datasetOption);
    if (dataset.isEmpty()) {
        dataset = settings.value(QStringLiteral("dataset/last")).toString();
    }
    if (dataset.isEmpty() || !QFileInfo::exists(dataset)) {
        dataset = sampleDataset();
    }
    if (!dataset.isEmpty()) {
        window.openDatasetAtStart(dataset);  // after the window is shown, in the background
    }
    if (parser.isSet(tabOption)) {
        window.tabs()->setCurrentIndex(parser.value(tabOption).toInt());
    }
    QWidget* shown = &window;
    if (parser.isSet(openRunOption)) {
        if (auto* dialog = window.runsPage()->openRun(parser.value(openRunOption).toLongLong())) {
            shown = dialog;  // else the window shows why it could not be opened
            if (auto* run = qobject_cast<bert::ui::RunDialog*>(dialog);
                run && parser.isSet(qualityOption)) {
                run->showReport();
            }
        }
    }
    if (parser.isSet(compareOption)) {
        QList<qint64> ids;
        for (const auto& id : parser.value(compareOption).split(QLatin1Char(','))) {
            ids << id.toLongLong();
        }
        if (auto* dialog = window.runsPage()->compare(ids)) {
            shown = dialog;
        }
    }
    if (parser.isSet(screenshotOption)) {
        const QString file = parser.value(screenshotOption);
        QTimer::singleShot(1500, shown, [shown, file] {
            shown->grab().save(file, "PNG");
            QApplication::quit();
        });
    }
    return QApplication::exec();
}

}  // namespace

int main(int argc, char** argv) {
    // Whatever escapes start-up ends in a message and its exit code (README, "Exit codes").
    try {
        return runStudio(argc, argv);
    } catch (...) {
        const auto error = std::current_exception();
        std::fprintf(stderr, "bert-studio: %s\n", qUtf8Printable(bert::ui::describeError(error)));
        return bert::exitCodeOf(error);
    }
}
