#include "common/Language.h"

#include <memory>

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace bert::ui {

namespace {

struct Installed {
    std::unique_ptr<QTranslator> studio;
    std::unique_ptr<QTranslator> qt;
    /// English's plural forms ("1 row", "2 rows" from tr("%n rows", nullptr, n)): the source
    /// strings are English, but only a translation gives %n its singular.
    std::unique_ptr<QTranslator> englishPlurals;
};

Installed& installed() {
    static Installed translators;
    return translators;
}

void remove(std::unique_ptr<QTranslator>& translator) {
    if (translator) {
        QCoreApplication::removeTranslator(translator.get());
        translator.reset();
    }
}

}  // namespace

bool installLanguage(const QString& requested) {
    auto& current = installed();
    remove(current.studio);
    remove(current.qt);
    remove(current.englishPlurals);
    const QString language =
        requested == QStringLiteral("system") ? QLocale::system().name() : requested;
    // Only Simplified Chinese is translated; every other language gets English.
    if (!language.startsWith(QStringLiteral("zh"))) {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        auto plurals = std::make_unique<QTranslator>();
        if (plurals->load(QStringLiteral(":/i18n/bert-studio_en.qm"))) {
            QCoreApplication::installTranslator(plurals.get());
            current.englishPlurals = std::move(plurals);
        }
        return language.startsWith(QStringLiteral("en")) || language == QStringLiteral("C");
    }
    auto studio = std::make_unique<QTranslator>();
    if (!studio->load(QStringLiteral(":/i18n/bert-studio_zh_CN.qm"))) {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        return false;
    }
    QCoreApplication::installTranslator(studio.get());
    current.studio = std::move(studio);
    // Qt's own strings: standard buttons (Yes, No, Cancel), file and input dialogs, the context
    // menus of text fields. Without them a Chinese window asked its questions in English.
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_zh_CN"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        current.qt = std::move(qt);
    }
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    return true;
}

bool interfaceTranslated() {
    return installed().studio != nullptr;
}

bool qtTranslationLoaded() {
    return installed().qt != nullptr;
}

}  // namespace bert::ui
