#pragma once

#include "engine/data/DataTable.h"
#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"

#include <cstddef>
#include <cstdint>
#include <stop_token>
#include <vector>

namespace sysid::job {

// What a parametric bootstrap draws its records from (Efron & Tibshirani, "An Introduction to
// the Bootstrap", 1993, section 6.5): the fit of the measured records, and each record as it was
// fitted (preprocessed) with its measured outputs replaced by the model simulated at that estimate.
struct BootstrapOrigin {
    estimate::FitResult estimate;
    std::vector<data::DataTable> records;  // per data set of the fit, noise-free
    struct NoisyColumn {
        std::size_t column;  // in the record's table
        double sd;  // the fit's residual RMS of the output read from it
    };
    std::vector<std::vector<NoisyColumn>> noise;  // per record
};

// Fits `fit` and simulates the model at the estimate on every record's (preprocessed) time grid
// with its inputs. Throws JobError when the fit or a simulation cannot run or was stopped.
BootstrapOrigin bootstrapOrigin(const FitJob& fit, std::stop_token stop = {});

// One bootstrap realisation: `fit` on the origin's records plus Gaussian noise with each
// output's residual RMS (one generator seeded with `seed`, records and columns in order), the
// preprocessing that changes the table already applied (so left out), starting at the estimate.
FitJob bootstrapRealisation(const FitJob& fit, const BootstrapOrigin& origin, std::uint64_t seed);

}  // namespace sysid::job
