#pragma once

#include "engine/project/ExampleCatalogue.h"

#include <QDialog>

#include <vector>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;

namespace sysid::ui {

// File > Examples: the bundled examples by title, with the description each example carries
// (its system, the literature it comes from, what to try) and its model text. Open accepts the
// dialog; the caller opens chosenPath() as an untitled copy.
class ExampleBrowser : public QDialog {
    Q_OBJECT
public:
    explicit ExampleBrowser(const QString& folder, QWidget* parent = nullptr);

    QString chosenPath() const;
    QListWidget* list() const { return list_; }
    QTextBrowser* description() const { return description_; }
    QPlainTextEdit* preview() const { return preview_; }
    const std::vector<project::Example>& examples() const { return examples_; }

private:
    void showExample(int example);

    std::vector<project::Example> examples_;
    QListWidget* list_;
    QLabel* title_;
    QTextBrowser* description_;
    QPlainTextEdit* preview_;
    QPushButton* open_;
};

}  // namespace sysid::ui
