#pragma once

#include <QApplication>
#include <QChart>
#include <QPalette>

namespace bert::ui {

/// The chart theme of the palette in force: dark under the dark palette (View → Dark palette),
/// else light. Every chart the studio makes starts in it, a dialog's opened later as much as the
/// main window's (whose charts MainWindow::setDarkPalette switches). GUI thread only.
inline QChart::ChartTheme chartTheme() {
    constexpr int kDarkLightness = 128;
    return QApplication::palette().color(QPalette::Window).lightness() < kDarkLightness
               ? QChart::ChartThemeDark
               : QChart::ChartThemeLight;
}

}  // namespace bert::ui
