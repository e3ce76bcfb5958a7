#pragma once

#include "engine/data/CsvReader.h"
#include "engine/data/DataTable.h"

#include <QByteArray>
#include <QDialog>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace sysid::ui {

class CurvePlot;

// Imports one CSV data file: file choice, a preview of the raw text, separator, decimal point,
// header line, rows skipped after it (units), time column, and the mapping of model outputs and inputs onto data
// columns, with a quick plot. The engine reads the file (data::csvLayout and previewFields for the preview,
// data::parseCsv for the table), so the dialog knows no CSV rule; its error is shown inline, naming
// line and column, with the offending preview row highlighted. A bad file never closes the
// dialog; the format the engine proposes for a new file is pre-selected and every line it leaves
// out is shown greyed in the preview, never dropped unseen. OK is enabled only when the file parses and at least one
// output is mapped (and every input has a column).
class ImportDialog : public QDialog {
    Q_OBJECT

public:
    explicit ImportDialog(QWidget* parent = nullptr);

    // The model's outputs and inputs, one mapping row each, pre-selected by equal column names.
    void setModelNames(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

    // Reads and parses the file (also what Browse… and editing the path do). Errors are not
    // thrown: they show in the dialog and in errorText().
    void loadFile(const QString& path);

    // The engine's (or the file system's) error for the current file and options; empty if none.
    QString errorText() const { return errorText_; }
    // Physical line (1-based) of the error, 0 when unknown or no error.
    int errorLine() const { return errorLine_; }
    // True when OK is allowed: the file parses, an output is mapped, every input has a column.
    bool isAcceptable() const;

    // The parsed table (empty when the file did not parse). Its source is the file name.
    data::DataTable table() const { return table_; }
    // Model name -> data column: outputs whose column is named differently, and all inputs.
    // An output set to "(not measured)" although a column of its name exists maps to the
    // time column, which the engine reads as "not measured" (estimate::makeExperiment).
    std::map<std::string, std::string> mapping() const;
    // The file as chosen (absolute path).
    QString filePath() const { return path_; }
    // The time column chosen explicitly; nullopt when left to the engine (t, time, else first).
    std::optional<std::string> timeColumn() const;

    // Options: separator 0 (auto), ',', ';' or '\t'; decimal point '.' or ','.
    void setSeparator(char separator);
    char separator() const;
    void setDecimalPoint(char decimalPoint);
    char decimalPoint() const;
    // Physical line of the header, 0 for the first line that is not blank or a comment.
    void setHeaderLine(int line);
    int headerLine() const;
    // Rows after the header that are not read (units).
    void setSkipRows(int rows);
    int skipRows() const;
    // Separator, decimal point, header line and rows skipped, as chosen: what the project stores.
    data::CsvFormat format() const;
    // The separator the preview splits by (the detected one when auto).
    char effectiveSeparator() const { return previewSeparator_; }
    // Chooses the data column of a model output or input ("" = not measured / none).
    void setColumnFor(const QString& modelName, const QString& column);
    // The data column chosen for a model output or input; "" when none.
    QString columnFor(const QString& modelName) const;

signals:
    // After every (re)parse, successful or not.
    void fileParsed(bool ok);

private:
    void browse();
    data::CsvOptions options() const;
    // Pre-selects the format the engine proposes for the file (data::detectCsvFormat).
    void proposeFormat();
    void reparse();
    void buildPreview();
    // The fields of a physical line (1-based) as the preview shows them.
    QStringList lineFields(int line) const;
    void rebuildTimeCombo(const QStringList& names);
    void rebuildMapping();
    void highlightErrorRow();
    void updatePlot();
    void updateAcceptance();
    QStringList dataColumnNames() const;
    QString timeColumnName() const;

    QLineEdit* pathEdit_ = nullptr;
    QPushButton* browseButton_ = nullptr;
    QComboBox* separatorCombo_ = nullptr;
    QComboBox* decimalCombo_ = nullptr;
    QComboBox* timeCombo_ = nullptr;
    QSpinBox* headerLineSpin_ = nullptr;
    QSpinBox* skipRowsSpin_ = nullptr;
    QLabel* headerLabel_ = nullptr;
    QTableWidget* preview_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    QTableWidget* mappingTable_ = nullptr;
    CurvePlot* plot_ = nullptr;
    QLabel* hintLabel_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;

    std::vector<std::string> outputs_;
    std::vector<std::string> inputs_;
    std::map<QString, QString> choices_;  // model name -> column chosen by the user ("" = none)
    QString path_;
    QByteArray bytes_;
    bool fileRead_ = false;
    data::CsvLayout layout_;  // the file's lines as the engine reads them
    QStringList headerFields_;
    int headerLine_ = 0;
    char previewSeparator_ = ',';
    data::DataTable table_;
    bool parsed_ = false;
    QString errorText_;
    int errorLine_ = 0;
    bool updating_ = false;
};

}  // namespace sysid::ui
