# isolating_server.py: `python3 -m http.server` that also sends the two
# headers of cross-origin isolation (COOP and COEP) with every answer, as
# a host configured for them does (README, "On a plain nginx"). For the
# tests and benchmarks of the static board (http_client.c's static_start):
# a page it serves is cross-origin isolated from the first visit and so
# has shared memory. Knows nothing of Denham: it serves a folder's files.
#   python3 -u bench/tools/isolating_server.py DIR
# prints "Serving HTTP on 127.0.0.1 port N" (a free port on loopback), as
# http.server does, then serves DIR until it is stopped.
import functools
import http.server
import sys


class IsolatingHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header('Cross-Origin-Opener-Policy', 'same-origin')
        self.send_header('Cross-Origin-Embedder-Policy', 'require-corp')
        super().end_headers()


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: isolating_server.py DIR')
    handler = functools.partial(IsolatingHandler, directory=sys.argv[1])
    with http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler) as server:
        print(f'Serving HTTP on 127.0.0.1 port {server.server_address[1]}', flush=True)
        server.serve_forever()


if __name__ == '__main__':
    main()
