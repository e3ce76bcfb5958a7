#include "engine/project/ProjectValidation.h"

#include "engine/project/ComparisonJson.h"
#include "engine/project/ProjectJob.h"

#include "engine/data/Text.h"

#include <cmath>
#include <exception>

namespace sysid::project {

std::vector<std::size_t> validationDataSets(const Project& project)
{
    std::vector<std::size_t> sets;
    for (std::size_t i = 0; i < project.data.size(); ++i)
        if (project.data[i].included && project.data[i].role == DataRole::Validation)
            sets.push_back(i);
    return sets;
}

std::vector<DataSetComparison> compareValidationDataSets(const Project& project, const job::FitJob& fit,
                                                         const std::map<std::string, double>& estimates,
                                                         job::InitialValues initial, std::stop_token stop)
{
    std::vector<DataSetComparison> comparisons;
    for (const std::size_t index : validationDataSets(project)) {
        const Project::DataSet& set = project.data[index];
        DataSetComparison c;
        c.dataSet = index;
        c.name = set.name.empty() ? set.path : set.name;
        try {
            c.comparison = job::compareWithRecord(fit, experimentData(project, index), index, estimates, initial, stop);
        } catch (const std::exception& e) {
            c.error = e.what();
        }
        comparisons.push_back(std::move(c));
    }
    return comparisons;
}

std::string validationReport(const std::vector<DataSetComparison>& comparisons)
{
    const auto number = [](double v, int digits) {
        return std::isfinite(v) ? data::formatNumber(v, digits) : std::string("-");
    };
    std::string report;
    for (const DataSetComparison& c : comparisons) {
        report += "validation on " + c.name + ": ";
        if (!c.comparison) {
            report += c.error + "\n";
            continue;
        }
        const job::ValidationSimulation& s = c.comparison->simulation;
        std::string outputs;
        for (std::size_t j = 0; j < s.outputNames.size() && j < c.comparison->agreement.size(); ++j) {
            if (j >= s.outputMeasured.size() || !s.outputMeasured[j])
                continue;
            const job::OutputAgreement& a = c.comparison->agreement[j];
            outputs += (outputs.empty() ? "" : "; ") + s.outputNames[j] + " rmse " + number(a.rmse, 4) + ", nrmse " +
                number(a.nrmse, 3) + ", fit " + number(a.fitPercent, 3) + " %";
        }
        report += (outputs.empty() ? std::string("no output measured") : outputs) + "\n";
    }
    return report;
}

nlohmann::json validationToJson(const std::vector<DataSetComparison>& comparisons)
{
    nlohmann::json block = nlohmann::json::object();
    for (const DataSetComparison& c : comparisons)
        block[c.name] = c.comparison ? comparisonToJson(*c.comparison) : nlohmann::json{{"error", c.error}};
    return block;
}

}  // namespace sysid::project
