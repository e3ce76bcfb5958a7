#include "ui/editor/ProblemList.h"

#include "ui/editor/ModelEditor.h"

#include <QColor>
#include <QFontDatabase>

namespace sysid::ui {

namespace {

constexpr int kShownRows = 5;  // rows visible before it scrolls

}  // namespace

ProblemList::ProblemList(ModelEditor* editor, QWidget* parent) : QListWidget(parent), editor_(editor)
{
    setObjectName(QStringLiteral("problemList"));
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setSelectionMode(QAbstractItemView::SingleSelection);
    setWordWrap(false);
    setToolTip(tr("Problems in the model text. Click one to go to its place."));
    setMaximumHeight(kShownRows * fontMetrics().height() + 2 * frameWidth() + 8);
    connect(this, &QListWidget::itemClicked, this, &ProblemList::jump);
    connect(this, &QListWidget::itemActivated, this, &ProblemList::jump);
    connect(editor_, &ModelEditor::summaryChanged, this,
            [this](const ModelSummary& summary) { setProblems(summary.errors); });
    setProblems(editor_->diagnostics());
}

QString ProblemList::rowText(const model::ModelDiagnostic& d)
{
    const QString message = QString::fromStdString(d.message);
    if (d.where.line <= 0)
        return message;
    const QString place = d.where.column > 0 ? QStringLiteral("%1:%2").arg(d.where.line).arg(d.where.column)
                                             : QString::number(d.where.line);
    return QStringLiteral("%1  %2").arg(place, message);
}

void ProblemList::setProblems(const std::vector<model::ModelDiagnostic>& problems)
{
    problems_ = problems;
    clear();
    for (const model::ModelDiagnostic& d : problems_) {
        auto* item = new QListWidgetItem(rowText(d), this);
        item->setForeground(QColor(0xc0, 0, 0));
        item->setToolTip(ModelEditor::problemText(d));
    }
    // Shown only inside a window: a list without a parent must not pop up as one of its own.
    if (problems_.empty())
        hide();
    else if (parentWidget())
        show();
}

void ProblemList::jump(const QListWidgetItem* item)
{
    const int r = item ? row(item) : -1;
    if (r >= 0 && r < static_cast<int>(problems_.size()))
        editor_->goTo(problems_[static_cast<std::size_t>(r)]);
}

}  // namespace sysid::ui
