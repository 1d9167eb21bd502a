[CmdletBinding()]
param(
    [Parameter(Mandatory)]
    [ValidatePattern('\.json$')]
    [string]$OutFile
)
$ErrorActionPreference = 'Stop'

try {
    $os = Get-CimInstance -ClassName Win32_OperatingSystem
    $cpu = Get-CimInstance -ClassName Win32_Processor | Select-Object -First 1
    $disks = Get-CimInstance -ClassName Win32_LogicalDisk -Filter 'DriveType = 3'
} catch {
    Write-Error "CIM query failed: $($_.Exception.Message)"
    exit 1
}

$uninstallKeys = @(
    'HKLM:\Software\Microsoft\Windows\CurrentVersion\Uninstall\*',
    'HKCU:\Software\Microsoft\Windows\CurrentVersion\Uninstall\*'
)
$apps = Get-ItemProperty -Path $uninstallKeys -ErrorAction SilentlyContinue |
    Where-Object { $_.DisplayName } |
    Sort-Object DisplayName -Unique |
    Select-Object DisplayName, DisplayVersion, Publisher

$inventory = [ordered]@{
    computer  = $env:COMPUTERNAME
    os        = "$($os.Caption) $($os.Version) (build $($os.BuildNumber))"
    cpu       = $cpu.Name
    memoryGiB = [math]::Round($os.TotalVisibleMemorySize / 1MB, 1)
    disks     = @($disks | ForEach-Object {
        [ordered]@{ drive = $_.DeviceID; sizeGiB = [math]::Round($_.Size / 1GB, 1); freePct = [math]::Round(100 * $_.FreeSpace / $_.Size, 1) }
    })
    apps      = @($apps)
}

$inventory | ConvertTo-Json -Depth 4 | Set-Content -Path $OutFile -Encoding utf8
$low = @($inventory.disks | Where-Object { $_.freePct -lt 15 })
Write-Host "$($inventory.os); $($inventory.memoryGiB) GiB RAM; $($apps.Count) applications; $($low.Count) disks under 15% free"
