// CANN's classic tiling-macro header, mapped onto akgen's host interface (akgen_host.h).
#pragma once
#include "akgen_host.h"
