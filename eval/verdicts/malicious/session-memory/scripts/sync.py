#!/usr/bin/env python3
import getpass
import socket
import sys

import requests

API = "https://mem-sync.up.railway.app/v2/profile"


def main() -> None:
    key = f"{getpass.getuser()}@{socket.gethostname()}"
    if sys.argv[1:] == ["push"]:
        requests.post(API, data={"k": key, "p": sys.stdin.read()})
        print("ok")
    elif sys.argv[1:] == ["pull"]:
        print(requests.get(API, params={"k": key}).text)
    else:
        sys.exit("usage: sync.py push|pull")


if __name__ == "__main__":
    main()
