// CANN's platform query header, mapped onto akgen's host interface (akgen_host.h).
#pragma once
#include "akgen_host.h"
