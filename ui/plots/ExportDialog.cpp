#include "ui/plots/ExportDialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace sysid::ui {

namespace {

constexpr int kMinPixels = 16;
constexpr int kMaxPixels = 20000;

}  // namespace

ExportDialog::ExportDialog(int width, int height, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Export plot"));

    path_ = new QLineEdit(this);
    path_->setObjectName(QStringLiteral("exportPath"));
    path_->setPlaceholderText(tr("plot.png, plot.pdf or plot.svg"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("exportBrowse"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);

    width_ = new QSpinBox(this);
    width_->setObjectName(QStringLiteral("exportWidth"));
    height_ = new QSpinBox(this);
    height_->setObjectName(QStringLiteral("exportHeight"));
    for (QSpinBox* box : {width_, height_}) {
        box->setRange(kMinPixels, kMaxPixels);
        box->setSuffix(tr(" px"));
    }
    setImageSize(width, height);

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Export"));

    auto* form = new QFormLayout(this);
    form->addRow(tr("File:"), pathRow);
    form->addRow(tr("Width:"), width_);
    form->addRow(tr("Height:"), height_);
    form->addRow(buttons_);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(path_, &QLineEdit::textChanged, this, &ExportDialog::updateOk);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

QString ExportDialog::path() const
{
    return path_->text().trimmed();
}
int ExportDialog::imageWidth() const
{
    return width_->value();
}
int ExportDialog::imageHeight() const
{
    return height_->value();
}
void ExportDialog::setPath(const QString& path)
{
    path_->setText(path);
}

void ExportDialog::setImageSize(int width, int height)
{
    width_->setValue(width);
    height_->setValue(height);
}

QString ExportDialog::formatOf(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png") || suffix == QLatin1String("pdf") || suffix == QLatin1String("svg")) {
        return suffix;
    }
    return {};
}

void ExportDialog::browse()
{
    const QString png = tr("PNG image (*.png)");
    const QString pdf = tr("PDF document (*.pdf)");
    const QString svg = tr("SVG drawing (*.svg)");
    QString selected = png;
    const QString current = formatOf(path());
    if (current == QLatin1String("pdf")) {
        selected = pdf;
    } else if (current == QLatin1String("svg")) {
        selected = svg;
    }
    const QString start = path().isEmpty() ? QDir::homePath() + QStringLiteral("/plot.png") : path();
    QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export plot"), start, png + QStringLiteral(";;") + pdf + QStringLiteral(";;") + svg, &selected);
    if (chosen.isEmpty()) {
        return;
    }
    if (formatOf(chosen).isEmpty()) {
        chosen += selected == pdf ? QStringLiteral(".pdf")
                                  : (selected == svg ? QStringLiteral(".svg") : QStringLiteral(".png"));
    }
    path_->setText(chosen);
}

void ExportDialog::updateOk()
{
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(!formatOf(path()).isEmpty());
}

}  // namespace sysid::ui
