// The report of a fit as one HTML document: the model verbatim and escaped, the data sets, the
// estimator's settings from the one settings table, every estimate with its standard deviation,
// the correlation matrix, why the fit stopped and the figures by their relative paths.
#include "engine/estimate/FitSettingFields.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/ResidualAnalysis.h"
#include "engine/estimate/UndeterminedDirections.h"
#include "engine/project/HtmlReport.h"
#include "engine/project/Project.h"
#include "engine/project/ReportFigures.h"

#include <QTemporaryDir>

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <string>

using namespace sysid;

namespace {

const std::string kProject = SYSID_SOURCE_DIR "/resources/examples/mass_spring_damper.sysid";

std::string digits(double value, int significant)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
    return buffer;
}

// A result as a fit of the example would leave it, without running one.
estimate::FitResult exampleResult(const project::Project& project)
{
    estimate::FitResult r;
    r.settings = project.settings;
    r.settings.maxIterations = 37;
    r.minimiser = "Levenberg-Marquardt";
    const char* names[] = {"m", "b", "k"};
    const double values[] = {1.0123, 0.98765, 1.0042};
    const double sds[] = {0.0123, 0.00456, 0.0789};
    const char* units[] = {"kg", "N*s/m", "N/m"};  // as the example's model gives them
    for (int i = 0; i < 3; ++i)
        r.parameters.push_back(
            {names[i], 10.0, values[i], sds[i], values[i] - 2 * sds[i], values[i] + 2 * sds[i], i == 1, units[i]});
    r.correlation = Eigen::MatrixXd::Identity(3, 3);
    r.correlation(0, 2) = r.correlation(2, 0) = 0.876;
    r.correlation(0, 1) = r.correlation(1, 0) = -0.25;
    r.cost = 0.5;
    r.outputNames = {"s"};
    r.residualRms = {0.0213};
    r.residualCount = 1001;
    // Residuals that follow a slow sine: far from white, so the verdict says so.
    estimate::ResidualRecord record;
    record.residuals.resize(1001);
    for (int i = 0; i < 1001; ++i)
        record.residuals[i] = std::sin(0.01 * i);
    r.residualAnalysis.outputs.push_back(estimate::analyseResiduals("s", {record}, {}));
    r.iterations = 9;
    r.termination = core::Termination::convergence(core::TerminationCriterion::CostTolerance,
                                                   "relative cost change 3e-12 below the tolerance 1e-10");
    return r;
}

std::size_t count(const std::string& text, const std::string& part)
{
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++n;
    return n;
}

}  // namespace

class TestHtmlReport : public QObject {
    Q_OBJECT

private slots:
    void escapesHtml()
    {
        QCOMPARE(project::htmlEscape("a < b && c > \"d\" 'e'"),
                 std::string("a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;"));
    }

    void holdsTheWholeFitInOrder()
    {
        project::Project project = project::loadProject(kProject);
        project.modelText += "# force < 10 N & stiffness > 0\n";
        const estimate::FitResult result = exampleResult(project);
        const std::vector<project::ReportFigure> figures{{"output_1.png", "Output s: measured and model", false},
                                                         {"cost.png", "Cost per iteration", false},
                                                         {"validation_1.png", "Validation record", true}};
        const std::string html = project::htmlReport(
            project, result, {"mass_spring_damper.sysid", "9.8.7", "2026-11-24 20:30 UTC", ""}, figures);

        QVERIFY(html.starts_with("<!DOCTYPE html>"));
        QCOMPARE(count(html, "<html"), std::size_t(1));
        QCOMPARE(count(html, "</html>"), std::size_t(1));
        QVERIFY(html.find("2026-11-24 20:30 UTC") != std::string::npos);
        QVERIFY(html.find("sysid 9.8.7") != std::string::npos);
        QVERIFY(html.find("mass_spring_damper.sysid") != std::string::npos);

        // The model verbatim, escaped: no raw markup of its own.
        QVERIFY(html.find("# force &lt; 10 N &amp; stiffness &gt; 0") != std::string::npos);
        QVERIFY(html.find("force < 10") == std::string::npos);
        QVERIFY(html.find("s&#39;&#39; = (u - b*s&#39; - k*s)/m") != std::string::npos);

        // The data set with its samples, read from its file, and its mapping.
        QVERIFY(html.find("mass_spring_damper_measured.csv") != std::string::npos);
        QVERIFY(html.find(">1001<") != std::string::npos);
        QVERIFY(html.find("u ← u") != std::string::npos);
        QVERIFY(html.find("Decimation") != std::string::npos);

        // Every setting the method takes, by its key in the table; none it does not take.
        for (const estimate::FitField& field : estimate::fitSettingFields()) {
            const bool taken = !field.need || estimate::takes(result.settings.method, *field.need);
            const bool shown = html.find("<code>" + field.names.key + "</code>") != std::string::npos;
            QVERIFY2(taken == shown, field.names.key.c_str());
        }
        QVERIFY(html.find("<b>37</b> (changed)") != std::string::npos);

        // Every estimate's row with its sd and relative sd (to 3 digits); the bound and the one on it.
        for (const auto& p : result.parameters) {
            const auto row = html.find("<td><b>" + p.name + "</b></td>");
            QVERIFY2(row != std::string::npos, p.name.c_str());
            const std::string line = html.substr(row, html.find("</tr>", row) - row);
            QVERIFY2(line.find(">" + digits(p.value, 6) + "<") != std::string::npos, line.c_str());
            QVERIFY2(line.find(">" + digits(p.sd, 3) + "<") != std::string::npos, line.c_str());
            QVERIFY2(line.find("<td>" + p.unit + "</td>") != std::string::npos, line.c_str());
            QVERIFY2(line.find(">" + digits(100 * p.sd / p.value, 3) + "<") != std::string::npos, line.c_str());
        }
        QVERIFY(html.find("[0.01, 100]") != std::string::npos);
        QCOMPARE(count(html, "on a bound"), std::size_t(1));

        // The correlation matrix, its off-diagonal entries included.
        QVERIFY(html.find("class=\"correlation\"") != std::string::npos);
        QCOMPARE(count(html, ">0.876<"), std::size_t(2));
        QCOMPARE(count(html, ">-0.250<"), std::size_t(2));

        // Why it stopped, the residual RMS, the figures by relative path with their captions.
        QVERIFY(html.find(result.termination.message) != std::string::npos);
        QVERIFY(html.find(">0.0213<") != std::string::npos);
        const std::string verdict = estimate::verdict(result.residualAnalysis.outputs.front());
        QVERIFY2(verdict.find("not white") != std::string::npos, verdict.c_str());
        QVERIFY(html.find(">" + project::htmlEscape(verdict) + "<") != std::string::npos);
        QVERIFY(html.find("src=\"output_1.png\"") != std::string::npos);
        QVERIFY(html.find("Figure 1.</b> Output s: measured and model") != std::string::npos);
        QVERIFY(html.find("Figure 3.</b> Validation record") != std::string::npos);

        // In the order an engineer reads it.
        const std::vector<std::string> order{"1. Model",     "2. Data sets", "3. Preprocessing",
                                             "4. Estimator", "5. Estimates", "6. How the fit ended",
                                             "7. Figures",   "8. Validation"};
        std::size_t last = 0;
        for (const auto& heading : order) {
            const auto at = html.find("<h2>" + heading + "</h2>");
            QVERIFY2(at != std::string::npos && at > last, heading.c_str());
            last = at;
        }
    }

    void saysWhatItCannotRead()
    {
        project::Project project = project::loadProject(kProject);
        project.data.front().path = "/nonexistent/gone.csv";
        const std::string html =
            project::htmlReport(project, exampleResult(project), {"p.sysid", "1", "today", ""}, {});
        QVERIFY(html.find("cannot be read") != std::string::npos);
        QVERIFY(html.find("gone.csv") != std::string::npos);
        QVERIFY(html.find("No figures") != std::string::npos);
    }

    // What the data cannot determine is said under the estimates, as the log says it.
    void saysWhatTheDataCannotDetermine()
    {
        const project::Project project = project::loadProject(kProject);
        estimate::FitResult result = exampleResult(project);
        result.undetermined.push_back({{{"m", 1.0}, {"k", -1.0}}});
        const std::string html = project::htmlReport(project, result, {"p.sysid", "1", "today", ""}, {});
        const std::string said = estimate::describe(result.undetermined.front());
        QVERIFY2(html.find("<b>Not determined:</b> " + said) != std::string::npos, said.c_str());
        QVERIFY(html.find("fix one of them") != std::string::npos);
    }

    // The last profiles the project saved: a table of profile and Wald intervals with the verdicts,
    // when they were computed around this result; a warning when around another one.
    void holdsTheProfilesOfThisFit()
    {
        project::Project project = project::loadProject(kProject);
        const estimate::FitResult result = exampleResult(project);
        QVERIFY(project::htmlReport(project, result, {"p.sysid", "1", "today", ""}, {}).find("Profile likelihood") ==
                std::string::npos);
        nlohmann::json last = {{"settings", {{"points", 20}, {"confidence", 0.95}, {"simultaneous", false}}},
                               {"threshold", 3.841458820694124},
                               {"estimates", {{"m", 1.0123}, {"b", 0.98765}, {"k", 1.0042}}},
                               {"profiles",
                                {{"k",
                                  {{"estimate", 1.0042},
                                   {"interval", {0.85, nullptr}},
                                   {"wald_interval", {0.8464, 1.162}},
                                   {"verdict", "practically non-identifiable"}}}}}};
        project.lastProfileResult = last;
        std::string html = project::htmlReport(project, result, {"p.sysid", "1", "today", ""}, {});
        QVERIFY(html.find("<h2>8. Profile likelihood</h2>") != std::string::npos);
        QVERIFY(html.find("<td>[0.85, open]</td><td>[0.8464, 1.162]</td><td>practically non-identifiable</td>") !=
                std::string::npos);
        QVERIFY(html.find("within 3.841 of the optimum") != std::string::npos);
        QVERIFY(html.find("another fit") == std::string::npos);
        last["estimates"]["k"] = 1.2;  // around another optimum
        project.lastProfileResult = last;
        html = project::htmlReport(project, result, {"p.sysid", "1", "today", ""}, {});
        QVERIFY(html.find("computed for another fit") != std::string::npos);
        QVERIFY(html.find("[0.85, open]") == std::string::npos);
    }

    // Without a screen the report draws the cost and the parameters per iteration as SVG.
    void historyFiguresAsSvg()
    {
        const project::Project project = project::loadProject(kProject);
        estimate::FitResult result = exampleResult(project);
        QVERIFY(project::writeHistoryFigures(result, "/nonexistent").empty());  // no history: nothing to draw
        for (std::size_t i = 0; i < 4; ++i)
            result.history.push_back({i, {10.0 / double(i + 1), 5.0, 1.0}, 1000.0 / double(i + 1), 0.0, 0.0});
        QTemporaryDir tmp;
        const auto figures = project::writeHistoryFigures(result, tmp.path().toStdString());
        QCOMPARE(figures.size(), std::size_t(2));
        for (const auto& figure : figures) {
            QFile file(tmp.filePath(QString::fromStdString(figure.file)));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const std::string svg = file.readAll().toStdString();
            QVERIFY(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
            QVERIFY(svg.ends_with("</svg>\n"));
            QVERIFY(!figure.caption.empty());
        }
        const std::string plot =
            project::svgLinePlot("a < b", "x", "y", {0, 1, 2}, {{"m", {1, 2, 3}}, {"k&c", {3, 2, 1}}}, false);
        QCOMPARE(count(plot, "<polyline"), std::size_t(2));
        QVERIFY(plot.find(">k&amp;c</text>") != std::string::npos);
        QVERIFY(plot.find(">a &lt; b</text>") != std::string::npos);
    }
};

QTEST_MAIN(TestHtmlReport)
#include "test_html_report.moc"
