#include "ui/settings/SpectrumPreview.h"

#include "engine/data/UniformTime.h"

#include <exception>

namespace sysid::ui {

SpectrumPreview computeSpectrumPreview(const SpectrumPreviewRequest& request)
{
    SpectrumPreview preview;
    for (std::size_t i = 0; i < request.series.size(); ++i) {
        const SpectrumPreviewRequest::Series& s = request.series[i];
        try {
            const std::vector<double>& values = s.table->columns.at(s.column);
            const double rate = 1.0 / data::uniformTimeStep(s.table->columns.at(s.table->timeColumn), s.what);
            preview.spectra.emplace_back(s.curve, data::welch(values, rate, 256));
            if (i == 0 && request.withPeak) {
                preview.peak = data::spectralPeak(values, rate);
                if (preview.peak)
                    preview.peak->column = request.peakColumn;
            }
        } catch (const std::exception& e) {
            preview.notes << QString::fromUtf8(e.what());
        }
    }
    return preview;
}

}  // namespace sysid::ui
