#include "ui/project/ModelProblem.h"

#include "ui/editor/ParameterTable.h"

#include <QStringList>

#include <algorithm>

namespace sysid::ui {

QString modelProblem(const QString& text, const ModelSummary& summary)
{
    if (!summary.valid)
        return text;
    QString canonical = text;
    std::vector<model::Parameter> estimated;
    for (const auto& p : summary.parameters)
        if (!p.fixed)
            estimated.push_back(p);
    // Rewrite from the end, so the places not yet rewritten keep their line and column.
    std::sort(estimated.begin(), estimated.end(), [](const model::Parameter& a, const model::Parameter& b) {
        return a.where.line != b.where.line ? a.where.line > b.where.line : a.where.column > b.where.column;
    });
    for (model::Parameter p : estimated) {
        if (p.isInitialValue) {
            if (const auto rewritten = ParameterTable::rewriteInitialValue(canonical, p.where, 0.0))
                canonical = *rewritten;
            continue;
        }
        p.value = 0.0;
        canonical = ParameterTable::rewriteParameterLine(canonical, p);
    }
    QStringList lines;
    for (QString line : canonical.split(QLatin1Char('\n'))) {
        if (const qsizetype hash = line.indexOf(QLatin1Char('#')); hash >= 0)
            line.truncate(hash);
        line = line.simplified();
        if (!line.isEmpty())
            lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace sysid::ui
