#include "common/Names.h"

#include <map>

#include <QRegularExpression>
#include <QStringList>

#include "common/Format.h"
#include "task/TaskView.h"
#include "train/Metrics.h"
#include "train/TrainingConfig.h"
#include "train/TrainingOptions.h"

namespace bert::ui {

namespace {

QString optionText(const char* text) {
    return Names::withoutMnemonic(QCoreApplication::translate("TrainingOptions", text));
}

}  // namespace

QString Names::withoutMnemonic(const QString& text) {
    // "批大小(&B)", "精度（&R）": the key in brackets after the words goes whole.
    static const QRegularExpression kBracketed(QStringLiteral("\\s*[(（]&[^&\\s][)）]"));
    const QString rest = QString(text).remove(kBracketed);
    QString plain;
    plain.reserve(rest.size());
    for (qsizetype i = 0; i < rest.size(); ++i) {
        if (rest[i] == QLatin1Char('&')) {
            if (i + 1 < rest.size() && rest[i + 1] == QLatin1Char('&')) {
                plain += QLatin1Char('&');  // "&&" is an ampersand
                ++i;
            }
            continue;
        }
        plain += rest[i];
    }
    return plain;
}

QString Names::task(TaskKind kind) {
    return taskView(kind).name();
}

QString Names::figure(const std::string& key) {
    static const std::map<std::string, const char*> names = {
        {"micro_f1", QT_TR_NOOP("micro-F1")},
        {"macro_f1", QT_TR_NOOP("macro-F1")},
        {"micro_precision", QT_TR_NOOP("micro precision")},
        {"micro_recall", QT_TR_NOOP("micro recall")},
        {"subset_accuracy", QT_TR_NOOP("subset accuracy")},
        {"hamming_loss", QT_TR_NOOP("Hamming loss")},
        {"rmse", QT_TR_NOOP("RMSE")},
        {"mae", QT_TR_NOOP("MAE")},
        {"pearson", QT_TR_NOOP("Pearson r")},
        {"spearman", QT_TR_NOOP("Spearman ρ")},
        {"r2", QT_TR_NOOP("R²")},
        {"entity_f1", QT_TR_NOOP("entity F1")},
        {"entity_precision", QT_TR_NOOP("entity precision")},
        {"entity_recall", QT_TR_NOOP("entity recall")},
        {"token_accuracy", QT_TR_NOOP("token accuracy")},
    };
    const auto found = names.find(key);
    return found == names.end() ? QString::fromStdString(key) : tr(found->second);
}

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
