#pragma once

#include "engine/core/SettingField.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/MethodTraits.h"

namespace sysid::estimate {

// The field descriptors of the fit settings: for every setting its key in a project's
// "settings" object, its `sysid fit` option, its help line, its rule and the method input it
// belongs to. The project reader and writer, the command line and validate() are made from
// these tables. Two settings are described elsewhere: the method (the project's top-level
// "method", --method) and the priors (mean and sd per parameter, --prior NAME=MEAN,SD).
//
// To add a fit setting: add the member with its default and a comment to FitSettings (or the
// struct inside it it belongs to), then one entry to that struct's table in FitSettingFields.cpp
// (key, option, label, help, the accessor, its rule, and the MethodInput of the methods it serves).
using FitField = core::Field<FitSettings, MethodInput>;

// The settings of FitSettings itself (not those of the structs inside it).
const core::FieldTable<FitSettings, MethodInput>& fitSettingOwnFields();
const core::FieldTable<PeriodicResponseSettings, MethodInput>& periodicResponseFields();
const core::FieldTable<EquationErrorSettings, MethodInput>& equationErrorFields();
// Every setting: fitSettingOwnFields(), then integratorSettingFields() under "integrator",
// periodicResponseFields() under "periodic" and equationErrorFields() under "equation_error".
const core::FieldTable<FitSettings, MethodInput>& fitSettingFields();

}  // namespace sysid::estimate
