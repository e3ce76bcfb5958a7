#include "ui/help/ExampleBrowser.h"

#include "ui/main/ScreenFit.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sysid::ui {

namespace {

constexpr int kExampleRole = Qt::UserRole;

void addSection(QListWidget* list, const QString& text)
{
    auto* item = new QListWidgetItem(text, list);
    item->setFlags(Qt::ItemIsEnabled);  // a heading: shown as text, never chosen
    QFont bold = item->font();
    bold.setBold(true);
    item->setFont(bold);
    item->setData(kExampleRole, -1);
}

// A project's description is prose in paragraphs; a model's is its comment block, whose lines
// (equations, parameter tables) keep their breaks and alignment.
QString descriptionHtml(const project::Example& e)
{
    const QString text = QString::fromStdString(e.description);
    if (!e.isProject)
        return QStringLiteral("<pre style=\"white-space: pre-wrap\">%1</pre>").arg(text.toHtmlEscaped());
    QString html;
    for (const QString& paragraph : text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>").arg(paragraph.toHtmlEscaped());
    return html;
}

}  // namespace

ExampleBrowser::ExampleBrowser(const QString& folder, QWidget* parent) :
    QDialog(parent), examples_(project::listExamples(folder.toStdString())), list_(new QListWidget), title_(new QLabel),
    description_(new QTextBrowser), preview_(new QPlainTextEdit), open_(nullptr)
{
    setObjectName(QStringLiteral("exampleBrowser"));
    setWindowTitle(tr("Examples"));

    bool projectsShown = false, modelsShown = false;
    for (std::size_t i = 0; i < examples_.size(); ++i) {
        const project::Example& e = examples_[i];
        if (e.isProject && !projectsShown) {
            addSection(list_, tr("Projects: model, data and settings, ready to fit"));
            projectsShown = true;
        }
        if (!e.isProject && !modelsShown) {
            addSection(list_, tr("Models: add or generate data to fit"));
            modelsShown = true;
        }
        auto* item = new QListWidgetItem(QString::fromStdString(e.title), list_);
        item->setData(kExampleRole, static_cast<int>(i));
        item->setToolTip(QFileInfo(QString::fromStdString(e.path)).fileName());
    }

    // Titles are sentences: wrap them rather than cut them off.
    list_->setWordWrap(true);
    list_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    list_->setResizeMode(QListView::Adjust);
    list_->setSpacing(1);

    QFont titleFont = title_->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    title_->setFont(titleFont);
    title_->setWordWrap(true);
    description_->setOpenLinks(false);
    preview_->setReadOnly(true);
    preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto* right = new QSplitter(Qt::Vertical);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(title_);
    topLayout->addWidget(description_);
    auto* bottom = new QWidget;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(new QLabel(tr("Model")));
    bottomLayout->addWidget(preview_);
    right->addWidget(top);
    right->addWidget(bottom);
    right->setSizes({300, 260});

    auto* splitter = new QSplitter;
    splitter->addWidget(list_);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({330, 620});

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    open_ = buttons->button(QDialogButtonBox::Open);
    open_->setToolTip(tr("Open the example as a new untitled project; the bundled file stays as it is"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);

    connect(list_, &QListWidget::currentRowChanged, this,
            [this](int row) { showExample(row < 0 ? -1 : list_->item(row)->data(kExampleRole).toInt()); });
    connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (item->data(kExampleRole).toInt() >= 0)
            accept();
    });
    for (int row = 0; row < list_->count(); ++row)
        if (list_->item(row)->data(kExampleRole).toInt() >= 0) {
            list_->setCurrentRow(row);
            break;
        }
    if (list_->currentRow() < 0)
        showExample(-1);
    fitToScreen(this, QSize(980, 620));
}

QString ExampleBrowser::chosenPath() const
{
    const QListWidgetItem* item = list_->currentItem();
    const int example = item ? item->data(kExampleRole).toInt() : -1;
    return example < 0 ? QString() : QString::fromStdString(examples_[static_cast<std::size_t>(example)].path);
}

void ExampleBrowser::showExample(int example)
{
    open_->setEnabled(example >= 0);
    if (example < 0) {
        title_->setText(examples_.empty() ? tr("No examples were found.") : QString());
        description_->clear();
        preview_->clear();
        return;
    }
    const project::Example& e = examples_[static_cast<std::size_t>(example)];
    title_->setText(QString::fromStdString(e.title));
    description_->setHtml(descriptionHtml(e));
    preview_->setPlainText(QString::fromStdString(e.modelText));
}

}  // namespace sysid::ui
