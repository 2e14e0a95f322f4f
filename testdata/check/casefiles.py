"""Reading and writing the ptxas-labelled case files of this folder: one JSON case a line, stored
gzipped (NAME.jsonl.gz) without a name or time in the gzip header, so that the bytes depend on the
cases alone and regenerating unchanged cases changes nothing."""
import gzip


def read_lines(path):
    """The lines of a case file, .jsonl or .jsonl.gz."""
    if path.endswith(".gz"):
        return gzip.decompress(open(path, "rb").read()).decode().splitlines()
    return open(path).read().splitlines()


def write_gz(path, text):
    """Writes a case file gzipped, reproducibly."""
    with open(path, "wb") as fh:
        fh.write(gzip.compress(text.encode(), mtime=0))
