#pragma once

#include <filesystem>
#include <vector>

#include <QWidget>

#include "hf/ModelCache.h"

class QComboBox;
class QPushButton;

namespace bert::ui {

/// The base models a user can choose without typing a path: the bundled MiniLM and the
/// trainable snapshots of the local Hugging Face cache (core/hf/ModelCache), each shown with its
/// family, parameters, vocabulary and longest sequence. Choosing one (mouse or keys) emits
/// folderChosen; the folder field beside it stays the way to any other folder, and showFolder()
/// keeps the list in step with it. The cache is read when the picker is built and on Rescan,
/// never from the network. GUI thread only.
class ModelPicker : public QWidget {
    Q_OBJECT

public:
    explicit ModelPicker(QWidget* parent = nullptr);

    /// Selects the entry of folder, or the "another folder" entry when it is none of them.
    void showFolder(const std::filesystem::path& folder);
    /// The models listed now, the bundled one first.
    const std::vector<CachedModel>& models() const { return models_; }

Q_SIGNALS:
    void folderChosen(const QString& folder);

private:
    void rescan();
    void choose(int index);

    std::vector<CachedModel> models_;
    std::filesystem::path shown_;
    QComboBox* box_;
    QPushButton* rescan_;
};

}  // namespace bert::ui
