#include "training/OptionForm.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <climits>

#include "common/Format.h"
#include "memory/DeviceTraits.h"
#include "memory/MemoryMonitor.h"

namespace bert::ui {

namespace {

QString translated(const char* text) {
    return QCoreApplication::translate("TrainingOptions", text);
}

/// A spin box for values over many orders of magnitude (learning rates): shown as 5e-05, and an
/// arrow step doubles or halves the value instead of adding a fixed amount.
class ScientificSpinBox final : public QDoubleSpinBox {
public:
    explicit ScientificSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
        setDecimals(15);  // the value keeps its precision; the text shows 3 significant digits
    }
    QString textFromValue(double value) const override { return QString::number(value, 'g', 3); }
    double valueFromText(const QString& text) const override { return text.toDouble(); }
    QValidator::State validate(QString& text, int&) const override {
        bool ok = false;
        const double value = text.toDouble(&ok);
        if (ok && value >= minimum() && value <= maximum()) {
            return QValidator::Acceptable;
        }
        return text.isEmpty() || text.endsWith(QLatin1Char('e')) ||
                       text.endsWith(QLatin1Char('-')) || text.endsWith(QLatin1Char('.'))
                   ? QValidator::Intermediate
                   : (ok ? QValidator::Intermediate : QValidator::Invalid);
    }
    void stepBy(int steps) override { setValue(value() * std::pow(2.0, steps)); }
};

int clampToInt(double value) {
    return static_cast<int>(
        std::clamp(value, static_cast<double>(INT_MIN), static_cast<double>(INT_MAX)));
}

QString groupTitle(OptionGroup group) {
    switch (group) {
        case OptionGroup::Data:
            return OptionForm::tr("Data");
        case OptionGroup::Batching:
            return OptionForm::tr("Batching");
        case OptionGroup::Memory:
            return OptionForm::tr("Memory");
        case OptionGroup::Optimisation:
            return OptionForm::tr("Optimisation");
        case OptionGroup::Run:
            return OptionForm::tr("Device and outputs");
    }
    return {};
}

}  // namespace

OptionForm::OptionForm(QWidget* parent) : QObject(parent) {
    std::map<OptionGroup, QFormLayout*> layouts;
    for (const auto group : {OptionGroup::Batching, OptionGroup::Memory, OptionGroup::Optimisation,
                             OptionGroup::Run}) {
        auto* box = new QGroupBox(groupTitle(group), parent);
        groups_[group] = box;
        layouts[group] = new QFormLayout(box);
    }
    for (const auto& option : trainingOptions()) {
        if (option.group == OptionGroup::Data) {
            continue;
        }
        auto* box = groups_[option.group];
        Row row = makeRow(option, box);
        row.editor->setObjectName(QString::fromLatin1(option.key));
        row.editor->setToolTip(translated(option.help));
        if (option.kind == OptionKind::Flag || option.kind == OptionKind::ByteSize) {
            layouts[option.group]->addRow(row.editor);  // the check box carries the label
        } else {
            layouts[option.group]->addRow(translated(option.label) + QLatin1Char(':'), row.editor);
        }
        rows_[option.key] = std::move(row);
    }
    write(TrainingConfig{});
}

OptionForm::Row OptionForm::makeRow(const OptionDescriptor& option, QWidget* parent) {
    Row row;
    row.option = &option;
    const TrainingConfig defaults;
    const auto defaultValue = option.get(defaults);
    switch (option.kind) {
        case OptionKind::Flag: {
            auto* box = new QCheckBox(translated(option.label), parent);
            connect(box, &QCheckBox::toggled, this, &OptionForm::onEdited);
            row.editor = box;
            row.value = [box] { return nlohmann::json(box->isChecked()); };
            row.show = [box](const nlohmann::json& v) { box->setChecked(v.get<bool>()); };
            break;
        }
        case OptionKind::Count:
        case OptionKind::Integer: {
            auto* box = new QSpinBox(parent);
            box->setRange(clampToInt(option.minimum), clampToInt(option.maximum));
            connect(box, &QSpinBox::valueChanged, this, &OptionForm::onEdited);
            row.editor = box;
            if (option.kind == OptionKind::Count) {
                row.value = [box] {
                    return nlohmann::json(static_cast<std::uint64_t>(std::max(0, box->value())));
                };
            } else {
                row.value = [box] {
                    return nlohmann::json(static_cast<std::int64_t>(box->value()));
                };
            }
            row.show = [box](const nlohmann::json& v) {
                box->setValue(clampToInt(v.get<double>()));
            };
            break;
        }
        case OptionKind::Real: {
            QDoubleSpinBox* box = nullptr;
            if (option.decimals == 0) {
                box = new ScientificSpinBox(parent);
            } else {
                box = new QDoubleSpinBox(parent);
                box->setDecimals(option.decimals);
                const double typical = defaultValue.get<double>();
                box->setSingleStep(typical > 0 ? typical / 2 : std::pow(10.0, 1 - option.decimals));
            }
            box->setRange(option.minimum, option.maximum);
            connect(box, &QDoubleSpinBox::valueChanged, this, &OptionForm::onEdited);
            row.editor = box;
            row.value = [box] { return nlohmann::json(box->value()); };
            row.show = [box](const nlohmann::json& v) { box->setValue(v.get<double>()); };
            break;
        }
        case OptionKind::Seed: {
            // 64 bits: a spin box holds only an int.
            auto* field = new QLineEdit(parent);
            field->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("[0-9]{1,20}")), field));
            auto last = std::make_shared<std::uint64_t>(defaultValue.get<std::uint64_t>());
            auto parse = [field, last] {
                const auto text = field->text().toStdString();
                std::uint64_t number = 0;
                const auto [next, error] =
                    std::from_chars(text.data(), text.data() + text.size(), number);
                if (!text.empty() && error == std::errc() && next == text.data() + text.size()) {
                    *last = number;
                }
                return *last;
            };
            connect(field, &QLineEdit::editingFinished, this, [this, field, parse] {
                field->setText(
                    QString::number(parse()));  // an out-of-range entry shows the value kept
                onEdited();
            });
            row.editor = field;
            row.value = [parse] { return nlohmann::json(parse()); };
            row.show = [field, last](const nlohmann::json& v) {
                *last = v.get<std::uint64_t>();
                field->setText(QString::number(*last));
            };
            break;
        }
        case OptionKind::Choice:
        case OptionKind::Device: {
            // Items carry the value's name as data: the text is for people and may be translated.
            auto* box = new QComboBox(parent);
            if (option.kind == OptionKind::Choice) {
                for (const auto& choice : option.choices) {
                    box->addItem(translated(choice.label), QString::fromLatin1(choice.name));
                }
            } else {
                box->addItem(QStringLiteral("cpu"), QStringLiteral("cpu"));
                for (int i = 0; i < cudaDeviceCount(); ++i) {
                    const c10::Device device(c10::kCUDA, static_cast<c10::DeviceIndex>(i));
                    box->addItem(QString::fromStdString(deviceDescription(device)),
                                 QStringLiteral("cuda:%1").arg(i));
                }
            }
            connect(box, &QComboBox::currentIndexChanged, this, &OptionForm::onEdited);
            row.editor = box;
            row.value = [box] {
                return nlohmann::json(box->currentData().toString().toStdString());
            };
            row.show = [box](const nlohmann::json& v) {
                const int index = box->findData(QString::fromStdString(v.get<std::string>()));
                box->setCurrentIndex(std::max(0, index));
            };
            break;
        }
        case OptionKind::ByteSize: {
            auto* container = new QWidget(parent);
            auto* layout = new QHBoxLayout(container);
            layout->setContentsMargins(0, 0, 0, 0);
            auto* enabled = new QCheckBox(translated(option.label), container);
            enabled->setObjectName(QString::fromLatin1(option.key) + QStringLiteral("_enabled"));
            auto* size = new QSpinBox(container);
            size->setObjectName(QString::fromLatin1(option.key) + QStringLiteral("_mib"));
            size->setRange(clampToInt(option.minimum / kBytesPerMiB),
                           clampToInt(option.maximum / kBytesPerMiB));
            size->setValue(4096);
            size->setSuffix(QStringLiteral(" MiB"));
            layout->addWidget(enabled);
            layout->addWidget(size, 1);
            connect(enabled, &QCheckBox::toggled, this, [this, size](bool on) {
                size->setEnabled(on);
                onEdited();
            });
            connect(size, &QSpinBox::valueChanged, this, &OptionForm::onEdited);
            size->setEnabled(false);
            row.editor = container;
            row.value = [enabled, size] {
                return enabled->isChecked()
                           ? nlohmann::json(static_cast<std::int64_t>(size->value() * kBytesPerMiB))
                           : nlohmann::json(nullptr);
            };
            row.show = [enabled, size](const nlohmann::json& v) {
                enabled->setChecked(!v.is_null());
                size->setEnabled(!v.is_null());
                if (!v.is_null()) {
                    size->setValue(clampToInt(std::round(v.get<double>() / kBytesPerMiB)));
                }
            };
            break;
        }
    }
    return row;
}

QGroupBox* OptionForm::groupBox(OptionGroup group) const {
    const auto it = groups_.find(group);
    return it == groups_.end() ? nullptr : it->second;
}

void OptionForm::read(TrainingConfig& config) const {
    for (const auto& [key, row] : rows_) {
        row.option->set(config, row.value());
    }
}

void OptionForm::write(const TrainingConfig& config) {
    writing_ = true;
    for (auto& [key, row] : rows_) {
        row.show(row.option->get(config));
    }
    writing_ = false;
    updateEnabled();
    Q_EMIT changed();
}

QWidget* OptionForm::editor(const std::string& key) const {
    const auto it = rows_.find(key);
    return it == rows_.end() ? nullptr : it->second.editor;
}

void OptionForm::setNote(const std::string& key, const QString& note) {
    auto* field = editor(key);
    if (field == nullptr) {
        return;
    }
    auto it = notes_.find(key);
    if (it == notes_.end()) {
        if (note.isEmpty()) {
            return;
        }
        auto* layout = qobject_cast<QFormLayout*>(field->parentWidget()->layout());
        int row = -1;
        QFormLayout::ItemRole role{};
        if (layout == nullptr) {
            return;
        }
        layout->getWidgetPosition(field, &row, &role);
        auto* label = new QLabel(field->parentWidget());
        label->setObjectName(QStringLiteral("note_") + QString::fromStdString(key));
        label->setWordWrap(true);
        label->setStyleSheet(QStringLiteral("color: #d35400;"));  // legible on light and dark
        layout->insertRow(row + 1, label);
        it = notes_.emplace(key, label).first;
    }
    it->second->setText(note);
    it->second->setVisible(!note.isEmpty());
}

void OptionForm::setMaximum(const std::string& key, int maximum) {
    if (auto* box = qobject_cast<QSpinBox*>(editor(key))) {
        box->setMaximum(maximum);
    }
}

void OptionForm::updateEnabled() {
    updatePrecisionChoices();
    // Sharding needs several processes: with one, the row stays visible but off and says where
    // it applies, so a job file saved here keeps it.
    if (auto* shard = editor("shard_optimizer")) {
        const auto processes = rows_.find("processes");
        shard->setEnabled(processes != rows_.end() && processes->second.value().get<int>() > 1);
        if (!shard->property("explained").toBool()) {
            shard->setProperty("explained", true);
            shard->setToolTip(shard->toolTip() + QStringLiteral("\n\n") +
                              tr("Takes effect with two or more data-parallel processes."));
        }
    }
    for (auto& [key, row] : rows_) {
        const std::string rule = row.option->enabledWhen;
        const auto equals = rule.find('=');
        if (equals == std::string::npos) {
            continue;
        }
        const auto other = rows_.find(rule.substr(0, equals));
        if (other != rows_.end()) {
            const auto value = other->second.value();
            const auto wanted = rule.substr(equals + 1);
            const bool enabled = value.is_boolean() ? value.get<bool>() == (wanted == "true")
                                                    : value == nlohmann::json(wanted);
            row.editor->setEnabled(enabled);
            // A switch whose condition is gone is switched off, so that a disabled box never
            // asks for what cannot be done (the frozen-prefix cache without frozen embeddings).
            if (!enabled && row.option->kind == OptionKind::Flag && row.value().get<bool>()) {
                // Quietly: updateEnabled runs inside an edit (or write) that emits changed().
                const QSignalBlocker quiet(row.editor);
                row.show(false);
            }
        }
    }
}

void OptionForm::updatePrecisionChoices() {
    // What half precision costs depends on the device: fp16 is not offered on a CPU, and bf16
    // there says what it costs (MemoryForecast.cpp's cost model).
    auto* precision = qobject_cast<QComboBox*>(editor("precision"));
    auto* device = qobject_cast<QComboBox*>(editor("device"));
    auto* items = precision ? qobject_cast<QStandardItemModel*>(precision->model()) : nullptr;
    if (items == nullptr || device == nullptr) {
        return;
    }
    const auto traits = deviceTraits(device->currentData().toString().toStdString());
    for (int i = 0; i < precision->count(); ++i) {
        auto* item = items->item(i);
        const auto name = precision->itemData(i).toString();
        QString why;
        bool offered = true;
        if (name == QStringLiteral("fp16") && !traits.cuda) {
            offered = false;
            why =
                tr("Not offered on a CPU: it has no fast fp16 arithmetic, and fp16 needs loss "
                   "scaling. bf16 keeps fp32's range.");
        } else if (name == QStringLiteral("bf16") && !traits.cuda) {
            why = traits.nativeBf16
                      ? tr("This CPU has bf16 instructions: about as fast as fp32. CPU attention "
                           "computes in fp32, so it saves little memory.")
                      : tr("About 4x slower on this CPU, which lacks bf16 instructions "
                           "(AVX512-BF16, AMX), and CPU attention computes in fp32, so it saves "
                           "little memory.");
        } else if (name != QStringLiteral("fp32") && traits.cuda) {
            const bool fast = name == QStringLiteral("bf16") ? traits.nativeBf16 : traits.fastFp16;
            why = fast ? tr("Tensor cores: faster than fp32, and activations take half the memory.")
                       : tr("This GPU has no %1 tensor cores: slower than fp32.").arg(name);
        }
        item->setEnabled(offered || precision->currentIndex() == i);
        item->setToolTip(why);
    }
}

void OptionForm::onEdited() {
    if (writing_) {
        return;
    }
    updateEnabled();
    Q_EMIT changed();
}

}  // namespace bert::ui
