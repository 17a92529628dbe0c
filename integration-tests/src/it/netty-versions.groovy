// Shared by the verify scripts: the Netty versions (tcnative has its own numbering) in dependencies.txt.
def nettyVersions(File basedir) {
  def versions = [] as Set
  new File(basedir, 'dependencies.txt').eachLine { line ->
    def m = line =~ /^\s*io\.netty:(netty-[\w-]+):jar(?::[\w-]+)?:([\w.]+):\w+/
    if (m.find() && !m.group(1).startsWith('netty-tcnative')) {
      versions << m.group(2)
    }
  }
  assert !versions.isEmpty() : 'no Netty artifact resolved at all'
  return versions
}
