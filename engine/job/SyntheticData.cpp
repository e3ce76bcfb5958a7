#include "engine/job/SyntheticData.h"

#include <random>

namespace sysid::job {

SyntheticData syntheticData(const integrate::Trajectory& trajectory, const std::vector<std::string>& outputNames,
                            const std::optional<OutputNoise>& noise)
{
    SyntheticData record;
    record.header.push_back("t");
    record.columns.push_back(trajectory.times);
    std::mt19937_64 rng(noise ? noise->seed : 0);
    for (std::size_t j = 0; j < outputNames.size(); ++j) {
        record.header.push_back(outputNames[j]);
        const auto column = trajectory.outputs.col(static_cast<Eigen::Index>(j));
        std::vector<double> values(column.data(), column.data() + column.size());
        if (noise)
            data::addNoise(values, noise->percentRms, noise->distribution, rng);
        record.columns.push_back(std::move(values));
    }
    return record;
}

}  // namespace sysid::job
