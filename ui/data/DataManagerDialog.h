#pragma once

#include <QDialog>
#include <QString>

#include <map>
#include <string>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sysid::ui {

class ProjectDocument;

// The data manager: every data set of the project in a table (name, whether the fit uses it,
// its role: estimation or validation) and, for the selected one, its column mapping — each model
// output and input with the file's columns offered in a combo. Each change is one undo step of
// the document (the dialog's Undo and Redo, Ctrl+Z and Ctrl+Shift+Z); a mapping that names a
// column the file lacks or leaves a model input without a column is refused with a message.
// Not modal: the plots behind it follow the selected data set.
class DataManagerDialog : public QDialog {
    Q_OBJECT

public:
    explicit DataManagerDialog(ProjectDocument* document, QWidget* parent = nullptr);

    // Selects data set `index` (its mapping is shown below the table).
    void selectDataSet(int index);
    int selectedDataSet() const;

    // The mapping the combos show (model name -> column; outputs not measured are absent).
    std::map<std::string, std::string> shownMapping() const;
    // Why the shown mapping cannot be applied (empty: it can).
    QString mappingProblem() const;
    // Applies the shown mapping as one undo step, or shows mappingProblem() and changes nothing.
    bool applyMapping();
    QString message() const;

private:
    void refreshTable();  // from the document
    void refreshMapping();  // the selected data set's mapping
    void showMessage(const QString& text, bool error);

    ProjectDocument* document_;
    QTableWidget* table_;
    QGroupBox* mappingBox_;
    QFormLayout* mappingForm_;
    std::map<std::string, QComboBox*> combos_;  // model output/input -> its column's combo
    std::map<std::string, bool> isInput_;
    QPushButton* applyButton_;
    QLabel* message_;
    bool refreshing_ = false;
};

}  // namespace sysid::ui
