#include "engine/project/ReportFigures.h"

#include "engine/project/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

namespace sysid::project {

namespace {

constexpr double kWidth = 640, kHeight = 360;
constexpr double kLeft = 72, kRight = 150, kTop = 34, kBottom = 48;  // the legend stands right of the plot

// Okabe and Ito (2008), colours told apart with any colour vision.
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};

std::string fixed(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", value);
    return buffer;
}

std::string tickText(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

// Ticks at 1, 2 or 5 times a power of ten, four to eight over [low, high].
std::vector<double> niceTicks(double low, double high)
{
    const double span = high - low;
    const double raw = span / 8;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = power;
    for (const double factor : {1.0, 2.0, 5.0, 10.0})
        if (factor * power >= raw) {
            step = factor * power;
            break;
        }
    std::vector<double> ticks;
    for (double t = std::ceil(low / step - 1e-9) * step; t <= high + 1e-9 * span; t += step)
        ticks.push_back(std::abs(t) < 1e-12 * span ? 0.0 : t);
    return ticks;
}

}  // namespace

std::vector<std::string> historyFigureFiles()
{
    return {"cost.svg", "parameters.svg"};
}

std::string svgLinePlot(const std::string& title, const std::string& xLabel, const std::string& yLabel,
                        const std::vector<double>& x, const std::vector<SvgSeries>& series, bool logY)
{
    const auto shown = [logY](double y) { return logY ? (y > 0 ? std::log10(y) : std::nan("")) : y; };
    double xLow = x.empty() ? 0.0 : x.front(), xHigh = x.empty() ? 1.0 : x.back();
    double yLow = std::numeric_limits<double>::infinity(), yHigh = -yLow;
    for (const auto& s : series)
        for (const double y : s.y)
            if (const double v = shown(y); std::isfinite(v)) {
                yLow = std::min(yLow, v);
                yHigh = std::max(yHigh, v);
            }
    if (!std::isfinite(yLow)) {
        yLow = 0;
        yHigh = 1;
    }
    if (yHigh - yLow < 1e-12 * std::max(1.0, std::abs(yHigh))) {
        yLow -= 0.5 * std::max(1e-3, std::abs(yLow));
        yHigh += 0.5 * std::max(1e-3, std::abs(yHigh));
    }
    if (xHigh <= xLow)
        xHigh = xLow + 1;
    const double pad = 0.05 * (yHigh - yLow);
    yLow -= pad;
    yHigh += pad;
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    const auto px = [&](double v) { return kLeft + (v - xLow) / (xHigh - xLow) * plotW; };
    const auto py = [&](double v) { return kTop + (yHigh - v) / (yHigh - yLow) * plotH; };

    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(kWidth) + "\" height=\"" +
        fixed(kHeight) + "\" viewBox=\"0 0 " + fixed(kWidth) + " " + fixed(kHeight) +
        "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    svg += "<text x=\"" + fixed(kLeft + plotW / 2) + "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">" +
        htmlEscape(title) + "</text>\n";
    for (const double t : niceTicks(xLow, xHigh)) {
        svg += "<line x1=\"" + fixed(px(t)) + "\" y1=\"" + fixed(kTop) + "\" x2=\"" + fixed(px(t)) + "\" y2=\"" +
            fixed(kTop + plotH) + "\" stroke=\"#e4e4e4\"/>\n";
        svg += "<text x=\"" + fixed(px(t)) + "\" y=\"" + fixed(kTop + plotH + 16) + "\" text-anchor=\"middle\">" +
            tickText(t) + "</text>\n";
    }
    for (const double t : niceTicks(yLow, yHigh)) {
        svg += "<line x1=\"" + fixed(kLeft) + "\" y1=\"" + fixed(py(t)) + "\" x2=\"" + fixed(kLeft + plotW) +
            "\" y2=\"" + fixed(py(t)) + "\" stroke=\"#e4e4e4\"/>\n";
        svg += "<text x=\"" + fixed(kLeft - 6) + "\" y=\"" + fixed(py(t) + 4) + "\" text-anchor=\"end\">" +
            (logY ? "1e" + tickText(t) : tickText(t)) + "</text>\n";
    }
    svg += "<rect x=\"" + fixed(kLeft) + "\" y=\"" + fixed(kTop) + "\" width=\"" + fixed(plotW) + "\" height=\"" +
        fixed(plotH) + "\" fill=\"none\" stroke=\"#404040\"/>\n";
    svg += "<text x=\"" + fixed(kLeft + plotW / 2) + "\" y=\"" + fixed(kHeight - 10) + "\" text-anchor=\"middle\">" +
        htmlEscape(xLabel) + "</text>\n";
    svg += "<text transform=\"translate(16," + fixed(kTop + plotH / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
        htmlEscape(yLabel) + "</text>\n";
    for (std::size_t k = 0; k < series.size(); ++k) {
        const char* colour = kColours[k % std::size(kColours)];
        std::string points;
        for (std::size_t i = 0; i < std::min(x.size(), series[k].y.size()); ++i)
            if (const double v = shown(series[k].y[i]); std::isfinite(v))
                points += fixed(px(x[i])) + "," + fixed(py(v)) + " ";
        svg += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"2\" points=\"" + points +
            "\"/>\n";
        const double ly = kTop + 10 + 18.0 * static_cast<double>(k);
        svg += "<line x1=\"" + fixed(kWidth - kRight + 12) + "\" y1=\"" + fixed(ly) + "\" x2=\"" +
            fixed(kWidth - kRight + 36) + "\" y2=\"" + fixed(ly) + "\" stroke=\"" + colour +
            "\" stroke-width=\"2\"/>\n<text x=\"" + fixed(kWidth - kRight + 42) + "\" y=\"" + fixed(ly + 4) + "\">" +
            htmlEscape(series[k].name) + "</text>\n";
    }
    return svg + "</svg>\n";
}

std::vector<ReportFigure> writeHistoryFigures(const estimate::FitResult& result, const std::string& folder)
{
    if (result.history.size() < 2)
        return {};
    std::vector<double> x;
    SvgSeries cost{"cost", {}};
    std::vector<SvgSeries> parameters;
    for (const auto& p : result.parameters)
        parameters.push_back({p.name, {}});
    for (const auto& record : result.history) {
        x.push_back(static_cast<double>(record.iteration));
        cost.y.push_back(record.cost);
        for (std::size_t i = 0; i < parameters.size() && i < record.parameters.size(); ++i) {
            const double final = result.parameters[i].value;
            parameters[i].y.push_back(final != 0.0 ? record.parameters[i] / final : std::nan(""));
        }
    }
    const std::filesystem::path dir(folder);
    const auto files = historyFigureFiles();
    writeFileAtomically((dir / files[0]).string(),
                        svgLinePlot("Cost per iteration", "iteration", "cost (log scale)", x, {cost}, true));
    writeFileAtomically(
        (dir / files[1]).string(),
        svgLinePlot("Parameters per iteration", "iteration", "value / final estimate", x, parameters, false));
    return {{files[0], "The cost (half the weighted sum of squared residuals) at each iteration, on a log scale."},
            {files[1], "Each estimated parameter at each iteration, divided by its final estimate (1 at the end)."}};
}

}  // namespace sysid::project
