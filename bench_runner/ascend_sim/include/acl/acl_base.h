// acl/acl_base.h — AscendCL base types; ascend_sim keeps all of AscendCL in acl/acl.h.
#pragma once
#include "acl.h"
