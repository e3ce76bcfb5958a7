#include "engine/core/Termination.h"

namespace sysid::core {

Termination Termination::convergence(TerminationCriterion criterion, std::string message)
{
    return {TerminationKind::Converged, criterion, std::move(message)};
}

Termination Termination::iterationLimit(std::string message)
{
    return {TerminationKind::IterationLimit, TerminationCriterion::None, std::move(message)};
}

Termination Termination::cancel(std::string message)
{
    return {TerminationKind::Cancelled, TerminationCriterion::None, std::move(message)};
}

Termination Termination::failure(TerminationCriterion criterion, std::string message)
{
    return {TerminationKind::Failed, criterion, std::move(message)};
}

bool operator==(const Termination& a, const Termination& b)
{
    return a.kind == b.kind && a.criterion == b.criterion && a.message == b.message;
}

std::string describe(const Termination& t)
{
    std::string text(terminationKinds.name(t.kind));
    if (t.criterion != TerminationCriterion::None)
        text += " (" + std::string(terminationCriteria.name(t.criterion)) + ")";
    if (!t.message.empty())
        text += ": " + t.message;
    return text;
}

}  // namespace sysid::core
