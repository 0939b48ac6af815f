// Runs one function of an NPUKernelBench pybind.cpp (compiled against akgen_torch_shim.h) on the
// call a model's ModelNew made, read from stdin, and prints what reached EXEC_NPU_CMD and what the
// function returned. The protocol is bench_runner/npukb_pybind.py's; it is line-based:
//   in:  "fn NAME", "args N", then one value per argument (T/L/N/I/F/B/S/V, see read_arg)
//   out: "exec OP N", one operand per line, then "return ID ..." ("-" for an undefined tensor)
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "akgen_torch_shim.h"

void akgen_pybind_init(::akgen_pybind::Module& m);

namespace {

using akgen_pybind::Arg;

at::Tensor read_tensor(std::istream& in) {
    auto p = std::make_shared<at::shim::TensorImpl>();
    std::string dtype;
    size_t ndim = 0, nvals = 0;
    in >> p->id >> dtype >> ndim;
    p->dtype = c10::dtype_of_name(dtype);
    p->shape.resize(ndim);
    for (auto& s : p->shape) in >> s;
    in >> nvals;
    p->values.resize(nvals);
    for (auto& v : p->values) in >> v;
    return at::Tensor(p);
}

Arg read_arg(std::istream& in) {
    Arg a;
    std::string kind;
    in >> kind;
    a.kind = kind.empty() ? '?' : kind[0];
    switch (a.kind) {
        case 'T': a.tensor = read_tensor(in); break;
        case 'L': {
            size_t n = 0;
            in >> n;
            for (size_t j = 0; j < n; ++j) {
                std::string t;
                in >> t;  // "T"
                a.list.push_back(read_tensor(in));
            }
            break;
        }
        case 'N': break;
        case 'I':
        case 'B': in >> a.i; a.f = static_cast<double>(a.i); break;
        case 'F': in >> a.f; break;
        case 'S': {
            size_t n = 0;
            in >> n;
            in.get();  // the one space before the text
            a.s.resize(n);
            in.read(a.s.data(), static_cast<std::streamsize>(n));
            break;
        }
        case 'V': {
            size_t n = 0;
            in >> n;
            a.ints.resize(n);
            for (auto& x : a.ints) in >> x;
            break;
        }
        default: throw akgen_pybind::Bad("unknown argument kind '" + kind + "'");
    }
    if (!in) throw akgen_pybind::Bad("the call description ended early");
    return a;
}

}  // namespace

int main() {
    try {
        akgen_pybind::Module m;
        akgen_pybind_init(m);
        std::string word, fn;
        size_t n = 0;
        std::cin >> word >> fn >> word >> n;
        std::vector<Arg> args;
        for (size_t i = 0; i < n; ++i) {
            args.push_back(read_arg(std::cin));
            args.back().id = "a" + std::to_string(i);
        }
        auto it = m.functions.find(fn);
        // A module.py that calls the binding's one function by another name (FlashAttention...'s
        // custom_pybind_api) means that function: there is no other it could reach.
        if (it == m.functions.end() && m.functions.size() == 1) it = m.functions.begin();
        if (it == m.functions.end()) {
            std::cerr << "pybind.cpp defines no function '" << fn << "' (m.def)\n";
            return 2;
        }
        std::ostringstream ret;
        it->second(args, ret);
        std::cout << akgen_pybind::record().str() << ret.str();
        return akgen_pybind::commands() == 1 ? 0 : 3;
    } catch (const std::exception& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
}
