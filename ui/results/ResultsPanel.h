#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/job/ProfileLikelihood.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

class QAction;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QResizeEvent;
class QBoxLayout;
class QTableWidget;

namespace sysid::ui {

// Shows the result of a fit: a parameter table (name, estimate, sd, 95 % interval,
// relative error against a known true value, a marker for estimates on a bound),
// the correlation matrix with cells coloured blue (-1) .. white (0) .. red (+1), and a
// summary line. The two tables stand side by side in a wide panel and one over the other in a
// tall one. The export functions are static so that they work without a window.
class ResultsPanel : public QWidget {
    Q_OBJECT

public:
    // Writes the file of one figure to path; false with *error set on failure.
    using FigureExporter = std::function<bool(const QString& path, QString* error)>;

    explicit ResultsPanel(QWidget* parent = nullptr);

    // Shows result; trueValues (parameter name -> value) fills the relative-error column.
    void setResult(const estimate::FitResult& result, const std::map<std::string, double>& trueValues = {});
    // A line under the summary on how the result does on the validation data sets (empty: none);
    // setResult and clear remove it.
    void setValidationSummary(const QString& text);
    // Empties the tables and the summary and disables the export buttons.
    void clear();
    bool hasResult() const { return hasResult_; }
    const estimate::FitResult& result() const { return result_; }

    // Table columns of the parameter table.
    enum ParameterColumn {
        ColName,
        ColEstimate,
        ColUnit,
        ColSd,
        ColInterval,
        ColProfile,
        ColRelError,
        ColBound,
        ColumnCount
    };
    // The profile likelihood's interval of each profiled parameter ("open" at an open end, the
    // verdict as its tooltip) in the Profile interval column, which is shown only while it holds
    // some; setResult and clear hide it again.
    void setProfileIntervals(const job::ProfileResult& profiles);
    bool showsProfileIntervals() const;

    QTableWidget* parameterTable() const { return parameterTable_; }
    QTableWidget* correlationTable() const { return correlationTable_; }
    QLabel* summaryLabel() const { return summary_; }
    QPushButton* refineButton() const { return refineButton_; }
    // Offers "Refine by output error": an equation-error estimate (Normann 1989) as the start of an output-error fit.
    void setRefineAvailable(bool available);
    // A button in the results' row for an action of the window (enabled with it).
    void addActionButton(QAction* action);
    // The panel's height that shows `rows` parameters' rows and correlation matrix whole, side by side.
    int heightForRows(int rows) const;
    // Marks the shown result as no longer matching the project: a banner says why (`reason`, e.g.
    // "the model changed since") and the tables are greyed. Empty: current.
    void setOutOfDate(const QString& reason);
    bool isOutOfDate() const { return !outOfDate_.isEmpty(); }
    QLabel* outOfDateBanner() const { return banner_; }

    // project::resultToJson(result), written with core::writeFileAtomically.
    static bool exportJson(const estimate::FitResult& result, const QString& path, QString* error,
                           const std::map<std::string, double>& trueValues = {});
    // project::parameterCsv(result), written atomically too.
    static bool exportCsv(const estimate::FitResult& result, const QString& path, QString* error);
    // Creates folder (and its parents), writes parameters.json (with trueValues), parameters.csv
    // and every figure to folder/<figure name> through its exporter. Stops at the first failure.
    // The report document around them: ReportFolder.h.
    static bool exportReport(const estimate::FitResult& result, const QString& folder,
                             const std::vector<std::pair<QString, FigureExporter>>& figures, QString* error,
                             const std::map<std::string, double>& trueValues = {});

    // How the panel shows a number: "—" for NaN, "∞" / "−∞" for infinities, else %.6g.
    static QString formatNumber(double value);
    // Colour of a correlation cell: blue for -1, white for 0, red for +1 (clamped, NaN grey).
    static QColor correlationColor(double value);

signals:
    // The user asked for an output-error fit started from the shown estimate.
    void refineRequested();
    // The user exported a file (path) or an export failed (message).
    void exported(const QString& path);
    void exportFailed(const QString& message);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    int rowHeight() const;
    void exportJsonInteractive();
    void exportCsvInteractive();

    QBoxLayout* tables_ = nullptr;  // the two tables: side by side or one over the other
    QTableWidget* parameterTable_ = nullptr;
    QTableWidget* correlationTable_ = nullptr;
    QLabel* summary_ = nullptr;
    QString resultSummary_;  // the summary of the result, without the validation line
    QLabel* banner_ = nullptr;
    QString outOfDate_;
    QHBoxLayout* top_ = nullptr;  // the summary and the buttons
    QPushButton* exportButton_ = nullptr;
    QAction* exportJsonAction_ = nullptr;
    QAction* exportCsvAction_ = nullptr;
    QPushButton* refineButton_ = nullptr;
    estimate::FitResult result_;
    std::map<std::string, double> trueValues_;
    bool hasResult_ = false;
};

}  // namespace sysid::ui
