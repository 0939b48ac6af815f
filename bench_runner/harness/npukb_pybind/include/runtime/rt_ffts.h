// akgen: NPUKernelBench pybind.cpp includes this; the shim stands in for it (../akgen_torch_shim.h).
#pragma once
#include "akgen_torch_shim.h"
