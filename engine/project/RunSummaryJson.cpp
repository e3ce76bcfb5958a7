#include "engine/project/RunSummaryJson.h"

#include <stdexcept>
#include <string>

using nlohmann::json;

namespace sysid::project {

json terminationToJson(const core::Termination& t)
{
    return {{"kind", std::string(core::terminationKinds.name(t.kind))},
            {"criterion", std::string(core::terminationCriteria.name(t.criterion))},
            {"message", t.message}};
}

core::Termination terminationFromJson(const json& in)
{
    const std::string kind = in.at("kind").get<std::string>();
    const std::string criterion = in.value("criterion", std::string("none"));
    const auto k = core::terminationKinds.parse(kind);
    if (!k)
        throw std::invalid_argument(core::terminationKinds.unknownMessage(kind));
    const auto c = core::terminationCriteria.parse(criterion);
    if (!c)
        throw std::invalid_argument(core::terminationCriteria.unknownMessage(criterion));
    return {*k, *c, in.value("message", std::string())};
}

json statisticsToJson(const core::SolverStatistics& s)
{
    const auto& i = s.integration;
    return {{"steps", i.steps},
            {"rejected_steps", i.rejectedSteps},
            {"rhs_evaluations", i.rhsEvaluations},
            {"jacobian_evaluations", i.jacobianEvaluations},
            {"factorizations", i.factorizations},
            {"integrations", i.integrations},
            {"events", i.events},
            {"newton",
             {{"iterations", s.newton.iterations},
              {"jacobian_builds", s.newton.jacobianBuilds},
              {"jacobian_reuses", s.newton.jacobianReuses},
              {"modified_steps", s.newton.modifiedSteps}}},
            {"seconds",
             {{"compilation", s.seconds.compilation},
              {"integration", s.seconds.integration},
              {"linear_algebra", s.seconds.linearAlgebra},
              {"total", s.seconds.total}}}};
}

core::SolverStatistics statisticsFromJson(const json& in)
{
    core::SolverStatistics s;
    auto& i = s.integration;
    i.steps = in.value("steps", std::size_t{0});
    i.rejectedSteps = in.value("rejected_steps", std::size_t{0});
    i.rhsEvaluations = in.value("rhs_evaluations", std::size_t{0});
    i.jacobianEvaluations = in.value("jacobian_evaluations", std::size_t{0});
    i.factorizations = in.value("factorizations", std::size_t{0});
    i.integrations = in.value("integrations", std::size_t{0});
    i.events = in.value("events", std::size_t{0});
    const json newton = in.value("newton", json::object());
    s.newton.iterations = newton.value("iterations", std::size_t{0});
    s.newton.jacobianBuilds = newton.value("jacobian_builds", std::size_t{0});
    s.newton.jacobianReuses = newton.value("jacobian_reuses", std::size_t{0});
    s.newton.modifiedSteps = newton.value("modified_steps", std::size_t{0});
    const json seconds = in.value("seconds", json::object());
    s.seconds.compilation = seconds.value("compilation", 0.0);
    s.seconds.integration = seconds.value("integration", 0.0);
    s.seconds.linearAlgebra = seconds.value("linear_algebra", 0.0);
    s.seconds.total = seconds.value("total", 0.0);
    return s;
}

}  // namespace sysid::project
