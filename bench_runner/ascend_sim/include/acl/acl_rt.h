// acl/acl_rt.h — the runtime part of AscendCL; ascend_sim keeps all of it in acl/acl.h.
#pragma once
#include "acl.h"
