#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/SpectralPeak.h"
#include "engine/data/Spectrum.h"

#include <QString>
#include <QStringList>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sysid::ui {

// The filter panel's spectra of the previewed column (raw, processed and as identified) and the
// raw column's spectral peak. Welch's method over a long record takes a tenth of a second per
// spectrum, so they are computed on a worker thread; the request shares ownership of the tables
// it reads, which nothing changes once they are shared.
struct SpectrumPreviewRequest {
    struct Series {
        QString curve;     // the spectrum plot's curve
        std::string what;  // for a message: "raw data", "processed data", ...
        std::shared_ptr<const data::DataTable> table;
        std::size_t column = 0;  // of the table, beside its time column
    };
    std::vector<Series> series;
    // The spectral peak of the first series, as the start value and cutoff suggestions use it.
    bool withPeak = false;
    std::string peakColumn;
};

struct SpectrumPreview {
    std::vector<std::pair<QString, data::Spectrum>> spectra;  // by curve, for the series that have one
    QStringList notes;  // why a series has no spectrum (not uniformly sampled, non-finite values, ...)
    std::optional<data::SpectralPeak> peak;  // only when requested
};

SpectrumPreview computeSpectrumPreview(const SpectrumPreviewRequest& request);

}  // namespace sysid::ui
