#!/bin/sh
# Survey fixture: how the sample is run by hand (the survey reads the verify line).
python3 scripts/gen_data.py
./prog
python3 scripts/verify_result.py output/z.bin output/golden.bin
