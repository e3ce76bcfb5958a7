#pragma once

#include "engine/data/DataTable.h"
#include "engine/integrate/InputSignals.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace sysid::integrate {

// A model's inputs over one period, read from a measured record and extended periodically: what a
// periodic solution under a measured excitation is driven by (Vankan 1992, the shock absorber's
// measured force).
struct PeriodicInputRecord {
    InputSignals inputs;  // periodic, phase 0 at the record's first time
    std::size_t periodsAveraged = 1;  // whole periods of the record averaged sample by sample
};

// From the table's columns (named as InputSignals::fromTable reads them) and the forcing period:
// - a record no longer than one period is that period's samples (a last sample one period after
//   the first is the first again and is dropped);
// - a longer record must be sampled uniformly at a whole fraction of the period; its whole periods
//   are averaged phase by phase (the noise of K periods drops by sqrt(K)) and a trailing part period
//   is left out.
// Throws data::DataError naming the record (and column) when it is shorter than needed, holds
// fewer than two samples in a period, or cannot be folded onto the period.
PeriodicInputRecord periodicInputsFromTable(const std::vector<std::string>& inputNames, const data::DataTable& table,
                                            double period, const std::map<std::string, std::string>& mapping = {},
                                            const std::map<std::string, Intersample>& intersample = {});

// The same folding of an experiment's measured inputs (each signal with its own behaviour); all
// signals must share one time base. `source` names the record in messages.
PeriodicInputRecord periodicInputsFrom(const InputSignals& record, double period, const std::string& source);

}  // namespace sysid::integrate
