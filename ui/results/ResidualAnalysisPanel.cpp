#include "ui/results/ResidualAnalysisPanel.h"

#include "ui/plots/ResidualCorrelationPlot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace sysid::ui {

ResidualAnalysisPanel::ResidualAnalysisPanel(QWidget* parent) :
    QWidget(parent), output_(new QComboBox(this)), verdict_(new QLabel(this)), plot_(new ResidualCorrelationPlot(this))
{
    setObjectName(QStringLiteral("residualAnalysisPanel"));
    output_->setObjectName(QStringLiteral("residualOutput"));
    verdict_->setObjectName(QStringLiteral("residualVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    plot_->setObjectName(QStringLiteral("residualCorrelationPlot"));

    auto* row = new QHBoxLayout;
    auto* label = new QLabel(tr("Output"), this);
    label->setBuddy(output_);
    row->addWidget(label);
    row->addWidget(output_);
    row->addWidget(verdict_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(plot_, 1);

    connect(output_, &QComboBox::currentIndexChanged, this, &ResidualAnalysisPanel::showOutput);
    clear();
}

void ResidualAnalysisPanel::setAnalysis(const estimate::ResidualAnalysis& analysis)
{
    const QString chosen = output_->currentText();
    analysis_ = analysis;
    {
        const QSignalBlocker blocker(output_);
        output_->clear();
        for (const auto& o : analysis_.outputs)
            output_->addItem(QString::fromStdString(o.output));
        output_->setCurrentIndex(std::max(0, output_->findText(chosen)));
    }
    output_->setEnabled(output_->count() > 1);
    showOutput(output_->currentIndex());
}

void ResidualAnalysisPanel::clear()
{
    setAnalysis({});
}

void ResidualAnalysisPanel::showOutput(int index)
{
    if (index < 0 || index >= static_cast<int>(analysis_.outputs.size())) {
        plot_->clear();
        verdict_->setText(tr("No residual analysis: a fit analyses the residuals of each measured output at its "
                             "estimate."));
        return;
    }
    const estimate::OutputResidualAnalysis& output = analysis_.outputs[static_cast<std::size_t>(index)];
    plot_->setAnalysis(output);
    QString sentence = QString::fromStdString(estimate::describe(output));
    sentence[0] = sentence[0].toUpper();
    verdict_->setText(tr("%1 — from %2 samples.").arg(sentence).arg(static_cast<qulonglong>(output.samples)));
}

void ResidualAnalysisPanel::setOutOfDate(const QString& reason)
{
    plot_->setNotice(reason.isEmpty() || analysis_.outputs.empty() ? QString()
                                                                   : tr("Out of date — %1 this fit").arg(reason));
}

}  // namespace sysid::ui
