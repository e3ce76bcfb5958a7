#include "engine/eval/CompiledModelCodec.h"

#include "engine/eval/NativeCode.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sysid::eval {

namespace {

// One list of fields per type, read by both directions (the encoder only reads what it is given).
template <class A>
void fields(A& a, model::SourceLocation& s)
{
    a(s.line), a(s.column), a(s.origin);
}
template <class A>
void fields(A& a, model::Prior& s)
{
    a(s.mean), a(s.sd);
}
template <class A>
void fields(A& a, model::Parameter& s)
{
    a(s.name), a(s.value), a(s.lower), a(s.upper), a(s.fixed), a(s.isInitialValue), a(s.prior), a(s.unit), a(s.where);
}
template <class A>
void fields(A& a, model::FieldLayout& s)
{
    a(s.name), a(s.variables), a(s.coordinates), a(s.states), a(s.where);
}
template <class A>
void fields(A& a, SparseExpressions::Entry& s)
{
    a(s.row), a(s.column), a(s.depth);
}
template <class A>
void fields(A& a, SparseExpressions& s)
{
    a(s.entries), a(s.expressions);
}
template <class A>
void fields(A& a, FunctionsWithGradients& s)
{
    a(s.values), a(s.state), a(s.parameter), a(s.timeInput);
}
template <class A>
void fields(A& a, SwitchSource& s)
{
    a(s.written), a(s.functions), a(s.rhs), a(s.rhsStateJacobian), a(s.rhsParamJacobian), a(s.rhsTimeInputJacobian),
        a(s.rhsStateHessian), a(s.rhsMixedHessian), a(s.rhsModeJacobian), a(s.lie), a(s.lieMode);
}
template <class A>
void fields(A& a, EventSource& s)
{
    a(s.text), a(s.line), a(s.direction), a(s.condition), a(s.states), a(s.values);
}
template <class A>
void fields(A& a, ConstraintSource::Invariant& s)
{
    a(s.text), a(s.place), a(s.level);
}
template <class A>
void fields(A& a, ConstraintSource::Stabilised& s)
{
    a(s.row), a(s.first), a(s.second);
}
template <class A>
void fields(A& a, ConstraintSource& s)
{
    a(s.algebraic), a(s.index), a(s.invariants), a(s.invariantInfo), a(s.stabilised), a(s.heldInitial);
}
template <class A>
void fields(A& a, CompiledModelSource& s)
{
    a(s.stateNames), a(s.parameterNames), a(s.inputNames), a(s.outputNames), a(s.outputUnits),
        a(s.declaredIntersample), a(s.parameterValues), a(s.parameters), a(s.rhs), a(s.rhsStateJacobian),
        a(s.rhsParamJacobian), a(s.rhsTimeInputJacobian), a(s.rhsStateHessian), a(s.rhsMixedHessian),
        a(s.rhsParamHessian), a(s.hasSecondDerivatives), a(s.outputs), a(s.outputState), a(s.outputStateJacobian),
        a(s.outputParamJacobian), a(s.initialState), a(s.initialStateJacobian), a(s.fields), a(s.switches),
        a(s.events), a(s.constraints);
}
// A field added to CompiledModelSource and not to the list above would be lost in the cache
// without a sound: this size (libstdc++, 64 bits) is a reminder to add it there.
static_assert(sizeof(void*) != 8 || sizeof(CompiledModelSource) == 1824,
              "CompiledModelSource changed: update fields() in CompiledModelCodec.cpp");

constexpr std::uint64_t kMagic = 0x73797369646d6431ull;  // "sysidmd1"

class Encoder {
public:
    std::string bytes;

    template <class T>
    void operator()(const T& value)
    {
        if constexpr (std::is_same_v<T, std::string>) {
            word(value.size());
            bytes += value;
        } else if constexpr (std::is_same_v<T, double>) {
            word(std::bit_cast<std::uint64_t>(value));
        } else if constexpr (std::is_enum_v<T>) {
            word(static_cast<std::uint64_t>(value));
        } else if constexpr (std::is_integral_v<T>) {
            word(static_cast<std::uint64_t>(static_cast<std::int64_t>(value)));
        } else if constexpr (requires { value.has_value(); }) {
            (*this)(value.has_value());
            if (value)
                (*this)(*value);
        } else if constexpr (requires { typename T::mapped_type; }) {
            word(value.size());
            for (const auto& [key, item] : value)
                (*this)(key), (*this)(item);
        } else if constexpr (requires { value.size(); value.begin(); }) {
            word(value.size());
            for (const auto& item : value)
                (*this)(item);
        } else {
            fields(*this, const_cast<T&>(value));
        }
    }
    void word(std::uint64_t w)
    {
        char raw[8];
        std::memcpy(raw, &w, 8);
        bytes.append(raw, 8);
    }
};

class Decoder {
public:
    explicit Decoder(std::string_view bytes) : bytes_(bytes) {}
    bool ok() const { return ok_; }
    bool atEnd() const { return position_ == bytes_.size(); }

    template <class T>
    void operator()(T& value)
    {
        if (!ok_)
            return;
        if constexpr (std::is_same_v<T, std::string>) {
            const std::uint64_t n = word();
            if (!ok_ || n > bytes_.size() - position_)
                return fail();
            value.assign(bytes_.substr(position_, n));
            position_ += n;
        } else if constexpr (std::is_same_v<T, double>) {
            value = std::bit_cast<double>(word());
        } else if constexpr (std::is_same_v<T, bool>) {
            const std::uint64_t w = word();
            if (w > 1)
                return fail();
            value = w == 1;
        } else if constexpr (std::is_enum_v<T>) {
            value = static_cast<T>(word());
        } else if constexpr (std::is_integral_v<T>) {
            const auto w = static_cast<std::int64_t>(word());
            value = static_cast<T>(w);
            if (static_cast<std::int64_t>(value) != w)
                return fail();
        } else if constexpr (requires { value.has_value(); value.emplace(); }) {
            bool present = false;
            (*this)(present);
            if (present)
                (*this)(value.emplace());
            else
                value.reset();
        } else if constexpr (requires { typename T::mapped_type; }) {
            const std::uint64_t n = count();
            value.clear();
            for (std::uint64_t i = 0; i < n && ok_; ++i) {
                typename T::key_type key{};
                typename T::mapped_type item{};
                (*this)(key), (*this)(item);
                value.emplace(std::move(key), std::move(item));
            }
        } else if constexpr (requires { value.resize(0); }) {
            const std::uint64_t n = count();
            value.resize(ok_ ? n : 0);
            for (auto& item : value) {
                typename T::value_type read{};
                (*this)(read);
                item = std::move(read);
            }
        } else {
            fields(*this, value);
        }
    }

    std::uint64_t word()
    {
        if (bytes_.size() - position_ < 8) {
            fail();
            return 0;
        }
        std::uint64_t w = 0;
        std::memcpy(&w, bytes_.data() + position_, 8);
        position_ += 8;
        return w;
    }

private:
    // A length no larger than the bytes left (every element takes at least one): a damaged
    // length cannot ask for a huge allocation.
    std::uint64_t count()
    {
        const std::uint64_t n = word();
        if (ok_ && n > bytes_.size() - position_)
            fail();
        return ok_ ? n : 0;
    }
    void fail() { ok_ = false; }

    std::string_view bytes_;
    std::size_t position_ = 0;
    bool ok_ = true;
};

}  // namespace

std::string encodeCompiledModel(const CompiledModelSource& model)
{
    Encoder encoder;
    encoder.word(kMagic);
    encoder(model);
    return std::move(encoder.bytes);
}

std::shared_ptr<CompiledModelSource> decodeCompiledModel(std::string_view bytes)
{
    Decoder decoder(bytes);
    if (decoder.word() != kMagic)
        return nullptr;
    auto model = std::make_shared<CompiledModelSource>();
    decoder(*model);
    model->native = std::make_shared<NativeCode>();
    if (!decoder.ok() || !decoder.atEnd())
        return nullptr;
    for (const auto& [name, kind] : model->declaredIntersample) {
        const auto& known = integrate::intersampleTable.entries();
        if (std::none_of(known.begin(), known.end(), [kind = kind](const auto& e) { return e.value == kind; }))
            return nullptr;
    }
    return model;
}

}  // namespace sysid::eval
