#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/project/Project.h"

#include <string>
#include <vector>

namespace sysid::project {

// A figure of a report: its file next to report.html (a relative path, so the folder can be
// moved and mailed whole) and the caption written under it.
struct ReportFigure {
    std::string file;
    std::string caption;
    bool validation = false;  // simulated against data not used in the fit: its own section
};

// What the report says about itself in its heading.
struct ReportHeading {
    std::string projectFile;  // the project's file name as the user knows it ("" for an unsaved one)
    std::string version;  // of sysid
    std::string date;  // when it was written, e.g. reportDate()
    // Why the result no longer matches the project ("the model changed since"); empty: it does.
    std::string outOfDate;
};

// The current UTC date and time, "2026-11-24 20:30 UTC".
std::string reportDate();

// One self-contained HTML document of a fit, in the order an engineer reads it: heading (title,
// date, version, project file); the model text verbatim; the data sets (file, samples, time span,
// column mapping; each file is read for its samples, an unreadable one is said so); the
// preprocessing; the estimator's method and every setting it takes (from fitSettingFields(),
// changed ones marked); the estimates with standard deviation, relative sd, 95 % interval, bounds
// and the fixed parameters; the correlation matrix; why it stopped and the run's statistics; the
// residual RMS per output; the figures with numbered captions. Only HTML that Qt's QTextDocument
// also renders, so the same text prints to PDF.
std::string htmlReport(const Project& project, const estimate::FitResult& result, const ReportHeading& heading,
                       const std::vector<ReportFigure>& figures);

// text with &, <, >, " and ' as HTML entities.
std::string htmlEscape(const std::string& text);

}  // namespace sysid::project
