#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Differentiation.h"
#include "engine/data/Preprocessing.h"
#include "engine/data/SpectralPeak.h"
#include "ui/settings/SpectrumPreview.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace sysid::ui {

class CurvePlot;
class NumberField;
class SpectrumPlot;

// Preprocessing of the data (data::Preprocessing: time window, cut before or after filtering,
// added noise, low-pass and how it treats the record's ends, decimation) and the differentiation
// method, with a preview of one column: the raw and the processed signal over time, and their
// spectra (Welch power spectral density, log y) with a vertical line at the low-pass cutoff and
// the filter's gain |H|^2 over them, so the cutoff can be placed by eye. From the previewed
// column's spectral peak (data::spectralPeak) it offers a cutoff and a starting natural frequency
// (omega, omega^2 or f) for a parameter of the model (startValueRequested).
// Everything numerical is done by the engine (data::preprocess, data::welch); the spectra and the
// peak are computed on a worker thread (computeSpectrumPreview) and drawn when they arrive, so
// that a long record does not stall the window; spectraPending() says one is on its way. Errors
// (a cutoff above the Nyquist frequency, ...) are shown in a red line, never thrown. The cutoff
// offered before a low-pass is set is data::suggestedLowPassCutoff of the table shown, so that
// switching the filter on gives a valid filter at once. Number entries are NumberFields whose
// rules are data::Preprocessing::validate's; inputProblems() lists the invalid ones.
// The settings come first and the two plots below them at a readable height, so that in a
// narrow dock (inside a scroll area) neither is squeezed.
class FilterPanel : public QWidget {
    Q_OBJECT

public:
    explicit FilterPanel(QWidget* parent = nullptr);

    // The table previewed; not owned and must outlive the panel or be replaced
    // (nullptr clears the preview). The column chooser lists its non-time columns.
    void setTable(const data::DataTable* table);

    void setPreprocessing(const data::Preprocessing& settings);
    // Both, previewed once (a data set or a project shown): preprocessing a long record is the
    // panel's costliest step, 70 ms for a low-pass over a million samples.
    void setTableAndPreprocessing(const data::DataTable* table, const data::Preprocessing& settings);
    data::Preprocessing preprocessing() const;

    // The differentiation method and its Savitzky–Golay window (samples, odd);
    // the polynomial order is differentiationOrder().
    std::pair<data::DerivativeMethod, int> differentiation() const;
    int differentiationOrder() const;
    void setDifferentiation(data::DerivativeMethod method, int window = 7, int polynomialOrder = 3);

    // The column previewed, empty when there is none.
    QString currentColumn() const;
    void setCurrentColumn(const QString& name);

    // The model's parameters offered for a start value from the spectral peak (estimated
    // initial values left out by the caller). A name like "Omega2", "omega" or "wn" is preselected.
    void setParameterNames(const QStringList& names);
    // The spectral peak of the previewed column of the table, if it has one; nothing while it is
    // computed (spectraPending()).
    std::optional<data::SpectralPeak> previewPeak() const { return peak_; }
    // True while spectra for the current settings are computed on the worker thread.
    bool spectraPending() const { return spectraPending_; }

    // The identified model's response in a column's units, drawn in the spectrum as "identified"
    // while that column is previewed (the cutoff is placed by comparing the raw, filtered and
    // identified spectra, Normann 1989).
    void setIdentifiedResponse(const QString& column, std::vector<double> times, std::vector<double> values);

    // The engine's message for the current settings, empty when they apply cleanly.
    QString errorText() const { return error_; }
    // One line per number entry that is used and invalid, naming the setting and its rule.
    QStringList inputProblems() const;
    // The table after preprocessing, if the settings applied cleanly; else null.
    const data::DataTable* processedTable() const { return processed_.get(); }

    // graph(0) raw, graph(1) processed, in both plots.
    CurvePlot* signalPlot() const { return signalPlot_; }  // curves "raw" and "processed"
    SpectrumPlot* spectrumPlot() const { return spectrumPlot_; }  // the same two, and the cutoff marker
    QLabel* errorLabel() const { return errorLabel_; }

    QGroupBox* lowPassBox() const { return lowPassBox_; }
    QComboBox* filterEndsCombo() const { return ends_; }
    QLabel* lowPassNote() const { return lowPassNote_; }
    QCheckBox* windowAfterFilterCheck() const { return windowAfterFilter_; }
    QPushButton* skipTransientsButton() const { return skipTransients_; }
    QLabel* peakLabel() const { return peakLabel_; }
    QPushButton* useCutoffButton() const { return useCutoff_; }
    QComboBox* startParameterCombo() const { return startParameter_; }
    QComboBox* startFormCombo() const { return startForm_; }
    QPushButton* setStartButton() const { return setStart_; }
    QSpinBox* lowPassOrderSpin() const { return order_; }
    NumberField* cutoffField() const { return cutoff_; }
    NumberField* windowStartField() const { return windowStart_; }
    NumberField* windowEndField() const { return windowEnd_; }
    NumberField* noisePercentField() const { return noisePercent_; }

    // The plots' least height: readable axes and curves in a narrow dock.
    static constexpr int kPlotMinimumHeight = 180;

signals:
    void preprocessingChanged();
    // "Set start value": the parameter, the value (three significant digits) and where it comes
    // from, in words for a status line.
    void startValueRequested(const QString& parameter, double value, const QString& reason);

private:
    // setTable and setPreprocessing without the preview's refresh.
    void loadTable(const data::DataTable* table);
    void loadPreprocessing(const data::Preprocessing& settings);
    void buildUi();
    void settingChanged();
    void differentiationChanged();
    void refresh();
    void plotSignals();
    // Starts computing the previewed column's spectra (and its peak when the table or column
    // changed) on a worker thread; showSpectra draws those of the latest request.
    void plotSpectra();
    void showSpectra(const SpectrumPreview& preview);
    void showError(const QString& message);
    // Offers data::suggestedLowPassCutoff of the table while no low-pass is set (or its cutoff
    // is unusable), and says in the cutoff's tooltip where the value comes from.
    void suggestCutoff();
    // The peak, the offered cutoff and the start-value choices for the previewed column.
    void updateSuggestions();
    // Enables the start-value controls when there is a peak (offered forms) and a parameter.
    void updateStartControls();
    // The filter's gain over the spectra and its note (design, ends, how long the end transients
    // last) for the table's sample rate.
    void showFilter(const data::Preprocessing& settings);
    // The window without the low-pass's end transients at both ends, cut after filtering.
    void skipTransients();
    double sampleRate() const;  // of the table; 0 when there is none or it is not uniform

    const data::DataTable* table_ = nullptr;
    // Shared with the worker computing their spectra, so never changed in place. raw_ holds the
    // time and the previewed column of table_, copied once per table and column.
    std::shared_ptr<const data::DataTable> raw_, processed_, identified_;
    QString identifiedColumn_;
    std::optional<data::SpectralPeak> peak_;
    bool peakWanted_ = false;  // the table or column changed since peak_ was found
    // data::suggestedLowPassCutoff of the table, found once per table: it depends on nothing else.
    std::optional<double> suggestedCutoff_;
    quint64 spectraRequest_ = 0;  // the latest request; older results are dropped
    bool spectraPending_ = false;
    QString error_;
    bool updating_ = false;

    QComboBox* column_ = nullptr;
    QGroupBox* lowPassBox_ = nullptr;
    QSpinBox* order_ = nullptr;
    NumberField* cutoff_ = nullptr;
    QComboBox* ends_ = nullptr;
    QLabel* lowPassNote_ = nullptr;
    QGroupBox* windowBox_ = nullptr;
    QCheckBox* windowAfterFilter_ = nullptr;
    QPushButton* skipTransients_ = nullptr;
    QLabel* peakLabel_ = nullptr;
    QPushButton* useCutoff_ = nullptr;
    QComboBox* startParameter_ = nullptr;
    QComboBox* startForm_ = nullptr;
    QPushButton* setStart_ = nullptr;
    NumberField* windowStart_ = nullptr;
    NumberField* windowEnd_ = nullptr;
    QSpinBox* decimation_ = nullptr;
    QGroupBox* noiseBox_ = nullptr;
    NumberField* noisePercent_ = nullptr;
    QComboBox* noiseDistribution_ = nullptr;
    QLineEdit* noiseSeed_ = nullptr;
    QComboBox* derivativeMethod_ = nullptr;
    QSpinBox* derivativeWindow_ = nullptr;
    QSpinBox* derivativeOrder_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    CurvePlot* signalPlot_ = nullptr;
    SpectrumPlot* spectrumPlot_ = nullptr;
};

}  // namespace sysid::ui
