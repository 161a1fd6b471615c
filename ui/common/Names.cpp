#include "common/Names.h"

#include <QRegularExpression>
#include <QStringList>

#include "common/Format.h"
#include "train/Metrics.h"
#include "train/TrainingConfig.h"
#include "train/TrainingOptions.h"

namespace bert::ui {

namespace {

QString optionText(const char* text) {
    return QCoreApplication::translate("TrainingOptions", text).remove(QLatin1Char('&'));
}

}  // namespace

QString Names::status(RunStatus status) {
    switch (status) {
        case RunStatus::Running:
            return tr("running");
        case RunStatus::Completed:
            return tr("completed");
        case RunStatus::Cancelled:
            return tr("cancelled");
        case RunStatus::Failed:
            return tr("failed");
        case RunStatus::Interrupted:
            return tr("interrupted");
    }
    return QString::fromStdString(toString(status));
}

QString Names::techniques(const nlohmann::json& runConfig, const std::string& stored) {
    const auto* settings = trainingSettingsOfRunConfig(runConfig);
    if (settings == nullptr) {
        return QString::fromStdString(stored);
    }
    TrainingConfig config;
    try {
        config = TrainingConfig::fromJson(*settings);
    } catch (const std::exception&) {
        return QString::fromStdString(stored);
    }
    QStringList parts;
    for (const auto& option : trainingOptions()) {
        if (!option.summary || option.summary(config).empty()) {
            continue;
        }
        const auto value = option.get(config);
        QString shown;
        switch (option.kind) {
            case OptionKind::Flag:
                break;
            case OptionKind::Choice:
                for (const auto& choice : option.choices) {
                    if (value.is_string() && value.get<std::string>() == choice.name) {
                        shown = optionText(choice.label);
                    }
                }
                break;
            case OptionKind::ByteSize:
                shown = value.is_number() ? mib(value.get<std::int64_t>()) : QString();
                break;
            default:
                shown = QString::fromStdString(value.dump());
                break;
        }
        // "Memory cap (MiB)" shows its unit with the value: "Memory cap: 600 MiB".
        const auto label = optionText(option.label)
                               .remove(QRegularExpression(QStringLiteral("\\s*[(（][^)）]*[)）]")));
        parts << (shown.isEmpty() ? label : tr("%1: %2").arg(label, shown));
    }
    // Data parallel is how the run was launched (train --nproc, torchrun), not a setting.
    if (const auto ranks = runConfig.value("world_size", 1); ranks > 1) {
        parts << tr("data parallel on %1 processes").arg(ranks);
    }
    return parts.join(QStringLiteral(", "));
}

QString Names::preset(const std::string& name) {
    if (name == "tiny") {
        return tr("tiny");
    }
    if (name == "mini") {
        return tr("mini");
    }
    if (name == "small") {
        return tr("small");
    }
    if (name == "base") {
        return tr("base");
    }
    return QString::fromStdString(name);
}

}  // namespace bert::ui
