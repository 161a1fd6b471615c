#pragma once

#include <QString>

namespace bert::ui {

/// The interface language: the studio's own translation (translations/, embedded under :/i18n),
/// Qt's (its dialogs and standard buttons: qtbase_<language>.qm from Qt's translations folder,
/// Debian's qt6-translations-l10n), and the locale dates and numbers are written in.
///
/// installLanguage("zh_CN") installs both translators, replacing any installed before, and
/// makes zh_CN QLocale's default; "en" (or any language without a translation) removes them.
/// "system" means the system locale's language. Returns false when the studio has no
/// translation for the language (English is then in force). GUI thread only; the translators
/// live until the next call or the end of the program.
bool installLanguage(const QString& language);

/// Whether a translation other than English is in force.
bool interfaceTranslated();

/// Whether Qt's own translation for the language in force was found (false for English).
bool qtTranslationLoaded();

}  // namespace bert::ui
