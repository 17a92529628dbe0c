// Runs after the archetype has written the project, in every mode (interactive, batch, the
// archetype's integration tests). It checks the values that would otherwise give a project that
// fails later (at compile time, at helm install, or when the API server refuses an object): on a
// bad value it removes the generated directory and stops with a message naming the property and
// the value. Otherwise it makes the Maven wrapper executable (archetypes do not keep file modes).

def properties = request.properties
def projectDir = new File(request.outputDirectory, request.artifactId)

def javaKeywords = ['abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch', 'char',
    'class', 'const', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extends', 'false',
    'final', 'finally', 'float', 'for', 'goto', 'if', 'implements', 'import', 'instanceof', 'int',
    'interface', 'long', 'native', 'new', 'null', 'package', 'private', 'protected', 'public',
    'return', 'short', 'static', 'strictfp', 'super', 'switch', 'synchronized', 'this', 'throw',
    'throws', 'transient', 'true', 'try', 'void', 'volatile', 'while', '_'] as Set

def problems = []

// The DRA driver name: ResourceSlices' spec.driver, the DeviceClass, socket and CDI file names,
// the webhook's name. Kubernetes wants a DNS subdomain of at most 63 characters; a dot makes it a
// domain the vendor owns, which the webhook's name resource-claim-parameters.<driverName> needs
// (a webhook name has at least three parts). The kubelet plugin's sockets fit Linux's 107 bytes
// with any name Kubernetes allows: the SDK shortens them where needed.
String driverName = properties.getProperty('driverName')
def label = /[a-z0-9]([-a-z0-9]*[a-z0-9])?/
if (driverName == null || driverName.isEmpty()) {
  problems << 'driverName is required: the DRA driver name, a domain you own such as fpga.acme.com'
} else if (driverName.length() > 63) {
  problems << "driverName=\"${driverName}\" is ${driverName.length()} characters long: a DRA " +
      'driver name has at most 63'
}
if (driverName != null && !driverName.isEmpty() && !(driverName ==~ /${label}(\.${label})*/)) {
  problems << "driverName=\"${driverName}\" is not a DNS subdomain: use lower-case letters, " +
      "digits, '-' and '.', each part between dots starting and ending with a letter or digit " +
      '(e.g. fpga.acme.com)'
} else if (driverName != null && !driverName.isEmpty() && !driverName.contains('.')) {
  problems << "driverName=\"${driverName}\" has no dot: use a domain you own, such as " +
      "${driverName}.acme.com (the webhook's name resource-claim-parameters.<driverName> " +
      'needs three parts)'
}

// The Java package of every class.
String pkg = properties.getProperty('package')
def parts = pkg == null ? [''] : pkg.split('\\.', -1) as List
def badParts = parts.findAll { !(it ==~ /[A-Za-z_][A-Za-z0-9_]*/) || javaKeywords.contains(it) }
if (!badParts.isEmpty()) {
  def advice = badParts.collect { part ->
    if (part.isEmpty()) {
      return 'an empty part'
    }
    if (javaKeywords.contains(part)) {
      return "\"${part}\" is a Java keyword (use \"${part}_\")"
    }
    return "\"${part}\" is not a Java identifier (use letters, digits and '_', not starting " +
        'with a digit)'
  }
  problems << "package=\"${pkg}\" is not a Java package name: " + advice.join(', ')
}

// The Helm chart's name and the base of its objects' names: a DNS label.
String artifactId = request.artifactId
if (!(artifactId ==~ /[a-z]([-a-z0-9]*[a-z0-9])?/) || artifactId.length() > 63) {
  problems << "artifactId=\"${artifactId}\" names the Helm chart and its Kubernetes objects: " +
      "use lower-case letters, digits and '-', starting with a letter, at most 63 characters"
}

if (!problems.isEmpty()) {
  projectDir.deleteDir()
  throw new IllegalArgumentException('The dra4j driver archetype did not generate ' +
      artifactId + ': ' + problems.join('; '))
}

new File(projectDir, 'mvnw').setExecutable(true, false)
