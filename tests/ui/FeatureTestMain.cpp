// The studio's feature tests run offscreen, one QApplication per process, on a virtual screen of
// 1920 x 1080 without window frames (Qt's offscreen default is 800 x 600, smaller than the
// window, which then cannot keep the size it is given).
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
    QTemporaryDir config;
    const QString file = config.filePath(QStringLiteral("offscreen.json"));
    {
        QFile json(file);
        if (json.open(QIODevice::WriteOnly)) {
            json.write(R"({"windowFrameMargins": false, "screens": [{"name": "screen", "x": 0, )"
                       R"("y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, )"
                       R"("logicalBaseDpi": 96, "dpr": 1}]})");
        }
    }
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + file).toUtf8());
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BERT Studio tests"));
    // One settings file per process: ctest runs tests in parallel processes, and a fixture's
    // QSettings().clear() in one wiped a setting another was checking (a flaky failure).
    QApplication::setApplicationName(QStringLiteral("bert-studio-feature-tests-") +
                                     QString::number(QCoreApplication::applicationPid()));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
