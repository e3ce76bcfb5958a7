#include "ui/settings/NumberField.h"

#include "ui/settings/ToolTip.h"
#include "ui/settings/Utf8.h"

#include <QLocale>

#include <cmath>

namespace sysid::ui {

namespace {

// A border only: a background colour goes into the palette, which Qt does not always give back
// when the style sheet is cleared (a field marked before it was first shown stayed pink).
const char* const kInvalidStyle = "QLineEdit { border: 2px solid #d00000; }";

// A table's help line starts in lower case and has no full stop, as the command line's help lists it.
QString sentence(QString text)
{
    if (text.isEmpty())
        return text;
    text[0] = text[0].toUpper();
    if (!text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

}  // namespace

QString fieldToolTip(const core::FieldNames& names, const QString& rule)
{
    QStringList lines;
    if (!names.help.empty())
        lines << sentence(toQString(names.help));
    if (!rule.isEmpty())
        lines << QObject::tr("Allowed: %1.").arg(rule);
    if (!names.option.empty())
        lines << QObject::tr("Command line: --%1").arg(toQString(names.option));
    return lines.join(QLatin1Char('\n'));
}

NumberField::NumberField(QWidget* parent) : NumberField(0.0, parent) {}

NumberField::NumberField(double value, QWidget* parent) : QLineEdit(parent), value_(value)
{
    setText(format(value));
    // textChanged, not textEdited: text set by code (a test, a dialog filling itself) counts too.
    connect(this, &QLineEdit::textChanged, this, &NumberField::check);
    check();
}

void NumberField::setLabel(const QString& label)
{
    label_ = label;
    check();
}

void NumberField::setHelp(const QString& help)
{
    help_ = help;
    showState();
}

void NumberField::setRule(const core::NumberRule& rule)
{
    setCheck(checkOf(rule));
}

void NumberField::setCheck(Check check)
{
    check_ = std::move(check);
    this->check();
}

std::optional<double> NumberField::parse(const QString& text)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::RejectGroupSeparator);
    bool ok = false;
    double v = c.toDouble(t, &ok);
    if (!ok && QLocale().decimalPoint() != QStringLiteral(".")) {
        QLocale system;
        system.setNumberOptions(QLocale::RejectGroupSeparator);
        v = system.toDouble(t, &ok);
    }
    return ok ? std::optional<double>(v) : std::nullopt;
}

QString NumberField::format(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

void NumberField::setValue(double value)
{
    const auto shown = parse(text());
    // Our own last valid value coming back while the user is mid-entry ("1e-"): not a new value.
    const bool echo = !isValid() && value == value_;
    const bool changed = value != value_;
    value_ = value;
    if (!echo && !(shown && *shown == value))
        setText(format(value));
    check();  // also when a QSignalBlocker keeps textChanged from reaching it
    if (changed && isValid())
        emit valueChanged(value_);
}

QString NumberField::problemOf(const QString& label, const QString& entry, const Check& check, double* value)
{
    const QString name = label.isEmpty() ? tr("number") : label;
    const QString typed = entry.trimmed();
    if (typed.isEmpty())
        return tr("%1: empty; enter a number").arg(name);
    const auto parsed = parse(typed);
    if (!parsed)
        return tr("%1: \"%2\" is not a number").arg(name, typed);
    const QString rule = !std::isfinite(*parsed) ? tr("a finite number") : check ? check(*parsed) : QString();
    if (!rule.isEmpty())
        return tr("%1: %2 is not allowed; expected %3").arg(name, typed, rule);
    if (value)
        *value = *parsed;
    return {};
}

NumberField::Check NumberField::checkOf(const core::NumberRule& rule)
{
    return [rule](double v) { return rule.accepts(v) ? QString() : QString::fromStdString(rule.describe()); };
}

void NumberField::check()
{
    const bool wasValid = isValid();
    double parsed = value_;
    problem_ = problemOf(label_, text(), check_, &parsed);
    showState();
    const bool nowValid = isValid();
    if (nowValid && parsed != value_) {
        value_ = parsed;
        emit valueChanged(value_);
    }
    if (nowValid != wasValid)
        emit validityChanged(nowValid);
}

void NumberField::showState()
{
    setProperty("invalid", !isValid());
    const QString sheet = isValid() ? QString() : QString::fromLatin1(kInvalidStyle);
    if (styleSheet() != sheet)
        setStyleSheet(sheet);  // a new style sheet re-polishes the widget: not on every key
    if (isValid())
        setToolTip(wrappedToolTip(help_));
    else
        setToolTip(
            wrappedToolTip(help_.isEmpty() ? problem_ + QLatin1Char('.') : problem_ + QStringLiteral(".\n\n") + help_));
}

}  // namespace sysid::ui
