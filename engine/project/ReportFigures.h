#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/project/HtmlReport.h"

#include <string>
#include <vector>

namespace sysid::project {

// The figures a report can draw without a screen, from the fit's iteration history alone: the
// cost per iteration and each parameter per iteration relative to its final estimate, as SVG.
// (The outputs against the data need a simulation and the graphical program's plots.)

// Their file names, for a caller that checks what a folder already holds.
std::vector<std::string> historyFigureFiles();

// The SVG of a line plot; each series is (name, y per x). logY draws log10 of positive values.
struct SvgSeries {
    std::string name;
    std::vector<double> y;
};
std::string svgLinePlot(const std::string& title, const std::string& xLabel, const std::string& yLabel,
                        const std::vector<double>& x, const std::vector<SvgSeries>& series, bool logY);

// Writes the history figures into folder (atomically) and returns them with their captions;
// none when the result has fewer than two iterations recorded. Throws ProjectError on a write failure.
std::vector<ReportFigure> writeHistoryFigures(const estimate::FitResult& result, const std::string& folder);

}  // namespace sysid::project
