#pragma once

#include <QDialog>
#include <QString>

class QDialogButtonBox;
class QLineEdit;
class QSpinBox;

namespace sysid::ui {

// Asks where to export a plot and at which size: a file path (PNG, PDF or SVG by its
// extension, with a "Browse…" button) and a width and height in pixels.
class ExportDialog : public QDialog {
    Q_OBJECT

public:
    ExportDialog(int width, int height, QWidget* parent = nullptr);

    QString path() const;
    int imageWidth() const;
    int imageHeight() const;
    void setPath(const QString& path);
    void setImageSize(int width, int height);

    // "png", "pdf", "svg", or an empty string for anything else.
    static QString formatOf(const QString& path);

private:
    void browse();
    void updateOk();

    QLineEdit* path_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace sysid::ui
