#include "ui/results/FieldPanel.h"

#include "ui/plots/FieldPlot.h"
#include "engine/model/Model.h"
#include "ui/project/ProjectDocument.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace sysid::ui {

FieldPanel::FieldPanel(ProjectDocument* document, QWidget* parent) : QWidget(parent), document_(document)
{
    field_ = new QComboBox(this);
    view_ = new QComboBox(this);
    view_->addItems({tr("measured"), tr("model"), tr("residual (measured − model)")});
    cut_ = new QComboBox(this);
    cut_->setToolTip(tr("A 2-D field is shown along one axis at a node of the other"));
    cutLabel_ = new QLabel(tr("cut:"), this);
    status_ = new QLabel(this);
    // No word wrap: a wrapping label gives the tab a height-for-width that stretches the main window.
    status_->setMinimumWidth(1);
    plot_ = new FieldPlot(this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("field:"), this));
    controls->addWidget(field_);
    controls->addWidget(new QLabel(tr("show:"), this));
    controls->addWidget(view_);
    controls->addWidget(cutLabel_);
    controls->addWidget(cut_);
    controls->addStretch(1);
    cut_->hide();
    cutLabel_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(status_);
    layout->addWidget(plot_, 1);

    connect(field_, &QComboBox::currentIndexChanged, this, &FieldPanel::showField);
    connect(cut_, &QComboBox::currentIndexChanged, this, &FieldPanel::showField);
    connect(view_, &QComboBox::currentIndexChanged, this,
            [this](int index) { plot_->setView(static_cast<FieldPlot::View>(index)); });
    connect(document_, &ProjectDocument::modelTextChanged, this, &FieldPanel::refreshFields);
    // The traces belong to the data set (and the project) shown before.
    const auto forgetTraces = [this] {
        modelTimes_.clear();
        modelOutputs_.resize(0, 0);
        plot_->setNotice(QString());
        showField();
    };
    connect(document_, &ProjectDocument::projectReplaced, this, forgetTraces);
    connect(document_, &ProjectDocument::dataChanged, this, forgetTraces);
    connect(document_, &ProjectDocument::currentDataSetChanged, this, forgetTraces);
    connect(document_, &ProjectDocument::preprocessingChanged, this, &FieldPanel::showField);
    // The controls' natural width (wide spin boxes) must not widen the window all plot tabs share:
    // a wider window repaints the output plots, with all their samples, for longer.
    setMinimumSize(240, 180);
    refreshFields();
}

void FieldPanel::setOutOfDate(const QString& reason)
{
    plot_->setNotice(reason.isEmpty() || modelTimes_.empty() ? QString() : tr("Out of date — %1 this fit").arg(reason));
}

void FieldPanel::setModelOutputs(const std::vector<double>& times, const Eigen::MatrixXd& outputs)
{
    if (field_->count() == 0)
        return;  // no field to show: a long record's traces are not worth copying 30 times a second
    modelTimes_ = times;
    modelOutputs_ = outputs;
    showField();
}

void FieldPanel::refreshFields()
{
    const QString current = field_->currentText();
    const QSignalBlocker block(field_);
    field_->clear();
    for (const auto& f : document_->modelSummary().fields)
        if (f.coordinates.size() == 1 || f.coordinates.size() == 2)
            field_->addItem(QString::fromStdString(f.name));
    const int keep = field_->findText(current);
    field_->setCurrentIndex(keep >= 0 ? keep : 0);
    showField();
}

void FieldPanel::showField()
{
    const ModelSummary& summary = document_->modelSummary();
    const model::FieldLayout* layout = nullptr;
    for (const auto& f : summary.fields)
        if (QString::fromStdString(f.name) == field_->currentText() &&
            (f.coordinates.size() == 1 || f.coordinates.size() == 2))
            layout = &f;
    refreshCuts(layout);
    const int set = document_->currentDataSet();
    // The data as the fit fits them (preprocessed), so the model's traces line up with them.
    QString error;
    const data::DataTable* table =
        set >= 0 && set < document_->dataSetCount() ? document_->fittedTable(set, &error) : nullptr;
    if (!layout || !table) {
        if (plot_->hasField())
            plot_->clear();
        status_->setText(!layout               ? tr("the model has no one- or two-dimensional field (a `field` block)")
                             : error.isEmpty() ? tr("no data set to show")
                                               : error);
        return;
    }
    const auto& mapping = document_->dataSet(set).mapping;
    // The nodes shown (indices into layout->states, last axis fastest) and their positions.
    std::vector<std::size_t> shown;
    std::vector<double> positions = layout->coordinates.front();
    QString axis = QString::fromStdString(layout->variables.front());
    if (layout->coordinates.size() == 1) {
        for (std::size_t k = 0; k < layout->states.size(); ++k)
            shown.push_back(k);
    } else {
        const std::size_t n = layout->coordinates[0].size(), m = layout->coordinates[1].size();
        const auto cut = static_cast<std::size_t>(std::max(cut_->currentIndex(), 0));
        if (cut < m) {  // y = y_cut: along the first axis
            for (std::size_t i = 0; i < n; ++i)
                shown.push_back(i * m + cut);
        } else {  // x = x_(cut - m): along the second axis
            for (std::size_t j = 0; j < m; ++j)
                shown.push_back((cut - m) * m + j);
            positions = layout->coordinates[1];
            axis = QString::fromStdString(layout->variables[1]);
        }
    }
    const auto nodes = static_cast<Eigen::Index>(shown.size());
    const auto samples = static_cast<Eigen::Index>(table->rowCount());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Eigen::MatrixXd measured = Eigen::MatrixXd::Constant(samples, nodes, nan);
    Eigen::MatrixXd model;
    const bool tracesFit = static_cast<Eigen::Index>(modelTimes_.size()) == samples && modelOutputs_.rows() == samples;
    if (tracesFit)
        model = Eigen::MatrixXd::Constant(samples, nodes, nan);
    int measuredNodes = 0;
    // A node is shown where it is a model output (by its state's name), measured in the output's column.
    for (Eigen::Index k = 0; k < nodes; ++k) {
        const std::string& state = summary.states.at(layout->states[shown[static_cast<std::size_t>(k)]]);
        for (std::size_t j = 0; j < summary.outputs.size(); ++j) {
            if (summary.outputs[j] != state)
                continue;
            const auto mapped = mapping.find(state);
            if (const auto c = table->findColumn(mapped != mapping.end() ? mapped->second : state)) {
                for (Eigen::Index s = 0; s < samples; ++s)
                    measured(s, k) = table->columns[*c][static_cast<std::size_t>(s)];
                ++measuredNodes;
            }
            if (tracesFit && static_cast<Eigen::Index>(j) < modelOutputs_.cols())
                model.col(k) = modelOutputs_.col(static_cast<Eigen::Index>(j));
        }
    }
    plot_->setField(field_->currentText(), axis, positions, table->time(), measured, model);
    QString text =
        tr("%1 of %2 nodes measured in %3").arg(measuredNodes).arg(nodes).arg(QString::fromStdString(table->source));
    if (!modelTimes_.empty() && !tracesFit)
        text += tr("; the fit's traces are on other times than the data now (the preprocessing changed), so the "
                   "model is not shown");
    else if (!tracesFit)
        text += tr("; run a fit for the model and the residual");
    status_->setText(text);
}

void FieldPanel::refreshCuts(const model::FieldLayout* layout)
{
    const bool twoD = layout && layout->coordinates.size() == 2;
    cut_->setVisible(twoD);
    cutLabel_->setVisible(twoD);
    const QString name = twoD ? QString::fromStdString(layout->name) : QString();
    const int expected = twoD ? static_cast<int>(layout->coordinates[0].size() + layout->coordinates[1].size()) : 0;
    if (name == cutsOf_ && cut_->count() == expected)
        return;
    const QSignalBlocker block(cut_);
    cut_->clear();
    cutsOf_ = name;
    if (!twoD)
        return;
    for (int axis : {1, 0})
        for (double c : layout->coordinates[static_cast<std::size_t>(axis)])
            cut_->addItem(QString::fromStdString(layout->variables[static_cast<std::size_t>(axis)]) + " = " +
                          QString::number(c, 'g', 6));
    cut_->setCurrentIndex(static_cast<int>(layout->coordinates[1].size() / 2));  // the middle of the second axis
}

}  // namespace sysid::ui
