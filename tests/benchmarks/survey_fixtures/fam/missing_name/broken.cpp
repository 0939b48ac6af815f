// Survey fixture: calls names no AscendC has, so the survey must name them as blockers.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void broken_fixture(GM_ADDR x) {
    AscendC::GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    AscendC::LocalTensor<float> local;   // declared here: its later errors are no blocker
    AscendC::SurveyNoSuchApi(local, xg, 64);
    SurveyUndeclaredHelper(64);
    local.SurveyNoSuchMember();
}
