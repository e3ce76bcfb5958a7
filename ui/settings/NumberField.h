#pragma once

#include "engine/core/SettingField.h"
#include "ui/settings/Utf8.h"

#include <QLineEdit>
#include <QString>

#include <functional>
#include <optional>
#include <string_view>
#include <variant>

namespace sysid::ui {

// The one input of a real number in the GUI. It takes the number as a user types it ("1e-9",
// "7e-6", "0.000007", "2.5E3"; a decimal comma too where the system writes one) and never
// rewrites that text: a value sent round through the project and back (setValue with the value
// the text already means, or with the last valid value while the entry is incomplete) leaves the
// text alone, so "1e-9" typed key by key stays "1e-9".
// While the text is a complete number its rule accepts, that number is the value (valueChanged
// once per new value). Otherwise the value stays the last valid one, the field gets a red frame,
// its tooltip says which rule the entry breaks and problem() names the field and the rule, so
// that whatever starts a run can refuse it.
class NumberField : public QLineEdit {
    Q_OBJECT

public:
    // What a value must be: empty when `value` is accepted, else the rule it breaks in words
    // ("a number > 0").
    using Check = std::function<QString(double value)>;

    explicit NumberField(QWidget* parent = nullptr);
    NumberField(double value, QWidget* parent = nullptr);

    // The setting's name in messages ("relative tolerance").
    void setLabel(const QString& label);
    QString label() const { return label_; }
    // What the setting does, shown as the tooltip (with the problem while the entry is invalid).
    void setHelp(const QString& help);
    QString help() const { return help_; }
    void setRule(const core::NumberRule& rule);
    void setCheck(Check check);
    // Label, help and rule of the number setting `key` of an engine settings table.
    template <class S, class Need>
    void describe(const core::FieldTable<S, Need>& table, std::string_view key);

    double value() const { return value_; }
    // Shows `value` unless the text already means it (see above); checks it against the rule.
    void setValue(double value);

    bool isValid() const { return problem_.isEmpty(); }
    // "relative tolerance: "1e-" is not a number; expected a number > 0"; empty while valid.
    QString problem() const { return problem_; }

    // What is wrong with `entry` in a field named `label` whose values must pass `check`: empty
    // when it is a number the check accepts (*value then receives it), else the message problem()
    // gives. Table cells holding numbers are checked by this too.
    static QString problemOf(const QString& label, const QString& entry, const Check& check, double* value = nullptr);
    static Check checkOf(const core::NumberRule& rule);
    // The number `text` is, as typed (surrounding spaces allowed); nothing when it is not one
    // complete number.
    static std::optional<double> parse(const QString& text);
    // The shortest text that reads back as `value`.
    static QString format(double value);

signals:
    // A new valid value: typed, or given by setValue.
    void valueChanged(double value);
    void validityChanged(bool valid);

private:
    void check();
    void showState();

    QString label_;
    QString help_;
    Check check_;
    QString problem_;
    double value_ = 0.0;
};

// The tooltip of a setting from its entry in an engine settings table: its help, its rule and its
// command-line option.
QString fieldToolTip(const core::FieldNames& names, const QString& rule = {});

// The rule of a number setting in words; empty for other kinds of setting.
template <class S, class Need>
std::optional<core::NumberRule> numberRuleOf(const core::Field<S, Need>& field)
{
    if (const auto* number = std::get_if<core::NumberAccess<S>>(&field.access))
        return number->rule;
    if (const auto* map = std::get_if<core::NumberMapAccess<S>>(&field.access))
        return map->rule;
    return std::nullopt;
}

template <class S, class Need>
void NumberField::describe(const core::FieldTable<S, Need>& table, std::string_view key)
{
    const auto* field = core::findField(table, key);
    if (!field)
        return;
    const auto& names = field->names;
    setLabel(toQString(names.label));
    const auto rule = numberRuleOf(*field);
    if (rule)
        setRule(*rule);
    setHelp(fieldToolTip(names, rule ? QString::fromStdString(rule->describe()) : QString()));
}

}  // namespace sysid::ui
